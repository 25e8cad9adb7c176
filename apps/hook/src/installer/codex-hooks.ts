import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { type AgentHookChange, type EventHandlers, editOurHandlers } from "./claude-code-hooks.js";
import { editCodexTrust } from "./codex-trust-entries.js";
import { codexTrustHash } from "./codex-trust-hash.js";
import { readJsonSettingsFile, readText, writeJsonSettingsEdit } from "./json-settings-file.js";

export interface CodexHome {
  path: string;
  /** Codex resolves symbolic links in `CODEX_HOME` (not in its default `~/.codex`), and keys trust by that path. */
  resolveLinks: boolean;
}

export interface CodexHookChange extends AgentHookChange {
  configFile: string;
  configChanged: boolean;
}

/**
 * Writes (or, with `undefined`, removes) our Stop, PermissionRequest and UserPromptSubmit hooks in `$CODEX_HOME/hooks.json` and
 * their trust records in `config.toml`: Codex skips an untrusted user hook silently, so a hook without one would
 * never run. Both files are checked before either is written.
 */
export function writeCodexHooks(home: CodexHome, handlers: EventHandlers): CodexHookChange {
  if (handlers) mkdirSync(home.path, { recursive: true });
  const directory = home.resolveLinks ? safeRealpath(home.path) : home.path;
  const file = join(directory, "hooks.json");
  const configFile = join(directory, "config.toml");
  const settings = readJsonSettingsFile(file);
  const config = readText(configFile);
  let trusted = config;
  const { document, events } = editOurHandlers(settings.document, handlers, ({ event, handler, edit }) => {
    if (!edit.changed && !handler) return;
    trusted = editCodexTrust(
      trusted,
      {
        hooksJsonPath: file,
        event,
        removed: edit.removed,
        moved: edit.moved,
        ...(handler && edit.added
          ? { added: { position: edit.added, trustedHash: codexTrustHash(event, handler) } }
          : {}),
      },
      configFile,
    );
  });
  const changed = events.some((event) => event.changed);
  const change: CodexHookChange = { file, changed, events, configFile, configChanged: false };
  if (changed) writeJsonSettingsEdit(settings, document);
  if (trusted !== config) {
    // An uninstall that leaves config.toml with nothing in it removes it: Codex reads no file as no settings.
    if (!handlers && trusted.trim() === "") rmSync(configFile, { force: true });
    else writeFileAtomic(configFile, trusted);
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
