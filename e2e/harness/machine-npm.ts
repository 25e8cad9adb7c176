import { execFileSync } from "node:child_process";
import { delimiter, dirname } from "node:path";
import { fromRoot } from "./paths.ts";

const WORKSPACE = fromRoot(".");

/**
 * The machine's PATH as a user's shell has it: without the workspace's bins and its pinned Node, which pnpm and
 * the test put first.
 */
export function machinePath(): string {
  const pinnedNode = dirname(process.execPath);
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => entry !== "" && entry !== pinnedNode && !entry.startsWith(WORKSPACE))
    .filter((entry) => !entry.includes("node_modules/.bin"))
    .join(delimiter);
}

/** The variables through which a machine names its TLS authorities and proxies (turbo.json passes them to tasks). */
const NETWORK_SETTINGS = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY)$/i;

/** The machine's TLS and proxy variables, for a child given a shell's environment of its own. */
export function machineNetworkSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => NETWORK_SETTINGS.test(name)));
}

let machineGlobalConfig: string | undefined;

/**
 * The global npmrc the machine's own npm reads (`npm config get globalconfig` with the machine's PATH). npm finds it
 * beside the Node that runs it, so under the workspace's pinned Node it would look in that Node's folder, where no
 * npmrc is, and lose the machine's `cafile` or proxy.
 */
export function machineGlobalNpmConfig(): string {
  machineGlobalConfig ??= execFileSync("npm", ["config", "get", "globalconfig"], {
    encoding: "utf8",
    env: machineShellEnvironment(),
  }).trim();
  return machineGlobalConfig;
}

/**
 * The environment npm (or npx) gets in a test, as it would in a user's shell on this machine: the machine's TLS and
 * proxy variables and its global npmrc, none of the `npm_*` settings pnpm hands the test process (among them pnpm's
 * own globalconfig), and an npm cache of the test's own, so a warm cache on the machine can never hide a fetch that
 * fails.
 */
export function machineNpmEnvironment(options: {
  path: string;
  cache: string;
  home?: string;
}): NodeJS.ProcessEnv {
  return {
    ...withoutPackageManagerVariables(process.env),
    PATH: options.path,
    ...(options.home === undefined ? {} : { HOME: options.home }),
    npm_config_globalconfig: machineGlobalNpmConfig(),
    npm_config_cache: options.cache,
  };
}

/** This process's environment as the machine's shell has it: its PATH, and none of the settings pnpm adds. */
export function machineShellEnvironment(): NodeJS.ProcessEnv {
  return { ...withoutPackageManagerVariables(process.env), PATH: machinePath() };
}

function withoutPackageManagerVariables(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));
}
