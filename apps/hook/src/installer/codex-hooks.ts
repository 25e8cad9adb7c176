import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import type { AgentHookChange } from "./claude-code-hooks.js";
import { editCodexTrust } from "./codex-trust-entries.js";
import { codexStopTrustHash } from "./codex-trust-hash.js";
import type { CommandHandler } from "./hook-command.js";
import { readJsonSettings, writeJsonSettings } from "./json-settings-file.js";
import { editStopHooks } from "./stop-hooks.js";

export interface CodexHome {
  path: string;
  /** Codex resolves symbolic links in `CODEX_HOME` (not in its default `~/.codex`), and keys trust by that path. */
  resolveLinks: boolean;
}

export interface CodexHookChange extends AgentHookChange {
  configFile: string;
  configChanged: boolean;
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/**
 * Writes (or, with `undefined`, removes) our Stop hook in `$CODEX_HOME/hooks.json` and its trust record in
 * `config.toml`: Codex skips an untrusted user hook silently, so a hook without it would never ring.
 */
export function writeCodexStopHook(home: CodexHome, handler: CommandHandler | undefined): CodexHookChange {
  if (handler) mkdirSync(home.path, { recursive: true });
  const directory = home.resolveLinks ? safeRealpath(home.path) : home.path;
  const file = join(directory, "hooks.json");
  const configFile = join(directory, "config.toml");
  const edit = editStopHooks(readJsonSettings(file), handler ? { ...handler } : undefined);
  const change: CodexHookChange = {
    file,
    changed: edit.changed,
    removed: edit.removed.length,
    configFile,
    configChanged: false,
  };
  if (!edit.changed && !handler) return change;

  const config = readText(configFile);
  const trusted = editCodexTrust(
    config,
    {
      hooksJsonPath: file,
      removed: edit.removed,
      moved: edit.moved,
      ...(handler && edit.added
        ? { added: { position: edit.added, trustedHash: codexStopTrustHash(handler) } }
        : {}),
    },
    configFile,
  );
  if (edit.changed) writeJsonSettings(file, edit.document);
  if (trusted !== config) {
    writeFileAtomic(configFile, trusted);
    change.configChanged = true;
  }
  return change;
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
