import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/main.js", import.meta.url));

/**
 * `ringback run --port 0` (the built `dist/main.js`) on `home` with `env` added to a bare environment; resolves with
 * the child and the port once it listens. The benches' one way to start the daemon.
 */
export async function startBenchDaemon(
  home: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number }> {
  if (!existsSync(bin)) throw new Error(`build first: ${bin} is missing`);
  const child = spawn(process.execPath, [bin, "run", "--port", "0"], {
    env: { PATH: process.env.PATH, HOME: home, LANG: "en_US.UTF-8", RINGBACK_HOME: home, ...env },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = stdout.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`daemon exited with ${code}`)));
  });
  return { child, port };
}
