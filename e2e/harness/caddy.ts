import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort, startChild } from "@ringback/test-kit";

/** Debian's Caddy (`.ci/run` installs it); CADDY_PATH points elsewhere. */
const CADDY_PATH = process.env.CADDY_PATH ?? "/usr/bin/caddy";

export interface CaddyFront extends AsyncDisposable {
  /** The HTTPS port Caddy serves the site names on. */
  readonly httpsPort: number;
  /** Caddy's internal root CA: what a browser or Node must trust for the site's certificate. */
  readonly rootCertificatePath: string;
  readonly log: () => string;
}

/**
 * A real Caddy in front of `upstream` (`host:port`), as the relay's README deploys it, for `names` (a DNS name and
 * 127.0.0.1): automatic HTTPS with Caddy's internal CA (`tls internal`: a test cannot reach Let's Encrypt), no
 * admin endpoint, nothing installed in the system's trust store, everything under `directory`.
 */
export async function startCaddy(options: {
  directory: string;
  names: readonly string[];
  upstream: string;
}): Promise<CaddyFront> {
  if (!existsSync(CADDY_PATH))
    throw new Error(`no Caddy at ${CADDY_PATH} (apt install caddy, or set CADDY_PATH)`);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const storage = join(options.directory, "storage");
  await mkdir(storage, { recursive: true });
  const caddyfile = join(options.directory, "Caddyfile");
  await writeFile(
    caddyfile,
    `{
\tadmin off
\tskip_install_trust
\thttp_port ${httpPort}
\thttps_port ${httpsPort}
\tstorage file_system ${storage}
}

${options.names.map((name) => `${name}:${httpsPort}`).join(", ")} {
\ttls internal
\treverse_proxy ${options.upstream}
}
`,
  );
  // Caddy gets SIGTERM when the thread that started it ends: a run killed outright (SIGKILL) leaves no Caddy behind.
  const child = startChild({
    command: "setpriv",
    args: [
      "--pdeathsig",
      "SIGTERM",
      "--",
      CADDY_PATH,
      "run",
      "--config",
      caddyfile,
      "--adapter",
      "caddyfile",
    ],
    env: {
      PATH: process.env.PATH,
      HOME: options.directory,
      XDG_DATA_HOME: join(options.directory, "data"),
      XDG_CONFIG_HOME: join(options.directory, "config"),
    },
    name: "Caddy",
  });
  const stop = async () => {
    await child.stop("SIGTERM");
  };
  const rootCertificatePath = join(storage, "pki", "authorities", "local", "root.crt");
  // Ready once it has issued every name's certificate from its own CA.
  await child
    .waitFor(
      () =>
        options.names.every((name) =>
          child.output.includes(`"certificate obtained successfully","identifier":"${name}"`),
        ),
      "its certificates",
      1_500,
    )
    .catch(async (error: unknown) => {
      await stop();
      throw new Error(`${error instanceof Error ? error.message : error}\n${child.output}`);
    });
  return { httpsPort, rootCertificatePath, log: () => child.output, [Symbol.asyncDispose]: stop };
}
