import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { HOOK_BUNDLE, type ProcessResult, runBundle } from "./hook-process.js";

/** Runs `ringback-hook install|uninstall` from the given bundle with temp agent homes and no service. */
export function runInstaller(
  command: "install" | "uninstall",
  home: string,
  options: { bundle?: string; extraArgs?: string[] } = {},
): Promise<ProcessResult> {
  return runBundle({
    bundle: options.bundle ?? HOOK_BUNDLE,
    args: [
      command,
      "--claude-home",
      join(home, ".claude"),
      "--codex-home",
      join(home, ".codex"),
      "--no-service",
      ...(options.extraArgs ?? []),
    ],
    env: { PATH: process.env.PATH, HOME: home },
  });
}

/** A copy of the bundle somewhere else, as if installed from another directory. */
export async function bundleCopyIn(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  const copy = join(directory, "ringback-hook.mjs");
  await copyFile(HOOK_BUNDLE, copy);
  return copy;
}

/** The command the installer writes for a bundle path (see the hook README). */
export function expectedCommand(bundle: string, kind: "claude-code" | "codex"): string {
  return `"${process.execPath}" "${bundle}" ${kind}`;
}

type Shape = Record<string, unknown>;

/** Every Stop handler command in a hook settings document, in order. */
export function stopCommands(document: Shape): string[] {
  const stop = (document.hooks as Shape | undefined)?.Stop;
  if (!Array.isArray(stop)) return [];
  return stop.flatMap((group: Shape) =>
    (group.hooks as Shape[]).map((handler) => String(handler.command ?? `<${String(handler.type)}>`)),
  );
}
