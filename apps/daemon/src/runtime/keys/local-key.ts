import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { readTextIfExists, tightenFileMode } from "../files/private-file.js";
import type { Logger } from "../logger.js";

export const LOCAL_KEY_FILE = "local-api.key";
const LOCAL_KEY_BYTES = 32;

/**
 * The local API key from `{data_dir}/local-api.key`, created on the first run (32 random bytes, base64url,
 * mode 600, no trailing newline). A blank file (a crash while creating it) gets a new key.
 */
export async function loadLocalKey(dataDir: string, log: Logger): Promise<string> {
  const path = join(dataDir, LOCAL_KEY_FILE);
  const existing = (await readTextIfExists(path))?.trim();
  if (existing) {
    await tightenFileMode(path, log);
    return existing;
  }
  const key = randomBytes(LOCAL_KEY_BYTES).toString("base64url");
  await writeFileDurably(path, key);
  log(`created ${path}`);
  return key;
}

/** Compares a presented key with the local key in constant time (equal-length digests of both). */
export function isLocalKey(presented: string, localKey: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(localKey));
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
