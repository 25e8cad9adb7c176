import { createHash } from "node:crypto";

/**
 * SHA-256 (hex) of the tool input's canonical JSON (object keys sorted at every depth): what a decision names, so
 * an allow can only ever let this exact input run.
 */
export function toolInputDigest(toolInput: unknown): string {
  return createHash("sha256").update(canonicalJson(toolInput), "utf8").digest("hex");
}

/** JSON with the keys of every object sorted; `undefined` (an absent input) is `null`. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value)) ?? "null";
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortedKeys(inner)]));
}
