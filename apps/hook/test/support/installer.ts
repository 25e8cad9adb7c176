import { copyFile, mkdir, readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { HookEventName } from "../../src/installer/hook-command.js";
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

/** A copy of the bin (the bundle and the installer chunk beside it) somewhere else, as if installed from there. */
export async function bundleCopyIn(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  const dist = dirname(HOOK_BUNDLE);
  const binFiles = (await readdir(dist)).filter((name) => name.endsWith(".mjs") && name !== "index.mjs");
  for (const name of binFiles) await copyFile(join(dist, name), join(directory, name));
  return join(directory, basename(HOOK_BUNDLE));
}

/** The command the installer writes for a bundle path (see the hook README). */
export function expectedCommand(bundle: string, kind: "claude-code" | "codex"): string {
  return `"${process.execPath}" "${bundle}" ${kind}`;
}

type Shape = Record<string, unknown>;

/** Every handler command of one event in a hook settings document, in order. */
export function eventCommands(document: Shape, event: HookEventName): string[] {
  const groups = (document.hooks as Shape | undefined)?.[event];
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((group: Shape) =>
    (group.hooks as Shape[]).map((handler) => String(handler.command ?? `<${String(handler.type)}>`)),
  );
}
