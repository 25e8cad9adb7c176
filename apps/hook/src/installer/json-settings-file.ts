import { readFileSync, rmSync } from "node:fs";
import { writeFileAtomic } from "./atomic-write.js";
import { InstallerError } from "./installer-error.js";
import { editJsonText } from "./json-text-edit.js";

type Shape = Record<string, unknown>;

/** A JSON settings file as it is on disk (empty when missing) and what it holds. */
export interface JsonSettingsFile {
  path: string;
  text: string;
  document: Shape;
}

/** A file's text, empty when it is missing. */
export function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/** A JSON settings file: `{}` when missing; never silently replaced when it is not a JSON object. */
export function readJsonSettingsFile(path: string): JsonSettingsFile {
  const text = readText(path);
  if (text.trim() === "") return { path, text, document: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InstallerError(`${path} is not valid JSON; fix it and run again`, { cause: error });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InstallerError(`${path} does not hold a JSON object; fix it and run again`);
  }
  return { path, text, document: value as Shape };
}

/** What a JSON settings file holds: `{}` when missing. */
export function readJsonSettings(path: string): Shape {
  return readJsonSettingsFile(path).document;
}

/**
 * Writes `document` into the settings file, touching only the members that changed: the person's other settings
 * keep their bytes (order, spacing, indentation). A file left with nothing in it is removed (an empty `{}` means the
 * same as no file to the agents, and a HOME that had no agent config should not gain one).
 */
export function writeJsonSettingsEdit(file: JsonSettingsFile, document: Shape): void {
  if (Object.keys(document).length === 0) rmSync(file.path, { force: true });
  else writeFileAtomic(file.path, editJsonText(file.text, file.document, document));
}
