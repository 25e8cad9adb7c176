import { readFileSync, rmSync } from "node:fs";
import { writeFileAtomic } from "./atomic-write.js";
import { InstallerError } from "./installer-error.js";

type Shape = Record<string, unknown>;

/** A JSON settings file: `{}` when missing; never silently replaced when it is not a JSON object. */
export function readJsonSettings(path: string): Shape {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InstallerError(`${path} is not valid JSON; fix it and run again`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InstallerError(`${path} does not hold a JSON object; fix it and run again`);
  }
  return value as Shape;
}

export function writeJsonSettings(path: string, document: Shape): void {
  writeFileAtomic(path, `${JSON.stringify(document, null, 2)}\n`);
}

/**
 * What an uninstall leaves: the settings without our hooks, or no file at all when nothing else is in it (an empty
 * `{}` means the same as no file to the agents, and a HOME that had no agent config should not gain one).
 */
export function writeJsonSettingsOrRemoveEmpty(path: string, document: Shape): void {
  if (Object.keys(document).length === 0) rmSync(path, { force: true });
  else writeJsonSettings(path, document);
}
