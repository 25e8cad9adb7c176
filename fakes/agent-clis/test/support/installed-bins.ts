import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

function binOf(name: string, bin: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir(name), "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  const relative = manifest.bin[bin];
  if (relative === undefined) throw new Error(`${name} has no bin named ${bin}`);
  const path = join(packageDir(name), relative);
  if (!existsSync(path)) throw new Error(`${path} is missing: build ${name} first (pnpm turbo run build)`);
  return path;
}

/** A command line to start: the executable and the arguments that come before the caller's. */
export interface CommandLine {
  command: string;
  args: string[];
}

/** The built `ringback-hook` bundle (the installer and the hook itself). */
export const hookBundlePath = () => binOf("@ringback/hook", "ringback-hook");

/** The built `ringback` daemon entry point. */
export const daemonMainPath = () => binOf("@ringback/daemon", "ringback");

/** The built `ringback-relay` entry point. */
export const relayMainPath = () => binOf("@ringback/relay", "ringback-relay");

/**
 * The web app inside the built relay package (`web/`: its build copies `apps/web-client/dist` there), which the
 * relay serves at `/` unless `--no-web`.
 */
export function relayWebAppDir(): string {
  const path = join(packageDir("@ringback/relay"), "web");
  if (!existsSync(join(path, "index.html")))
    throw new Error(`${path} has no index.html: build @ringback/web-client, then @ringback/relay`);
  return path;
}

/**
 * Claude Code from npm. Its postinstall copies the platform binary (an npm optional dependency) over
 * `bin/claude.exe`; pnpm runs no dependency's install script unless the workspace allows it, so the package's own
 * fallback launcher, `cli-wrapper.cjs`, finds that same binary and runs it.
 */
export function claudeCommand(): CommandLine {
  const wrapper = join(packageDir("@anthropic-ai/claude-code"), "cli-wrapper.cjs");
  return { command: process.execPath, args: [wrapper] };
}

/** Codex from npm: `bin/codex.js` runs the platform binary of its npm optional dependency. */
export function codexCommand(): CommandLine {
  return { command: process.execPath, args: [binOf("@openai/codex", "codex")] };
}
