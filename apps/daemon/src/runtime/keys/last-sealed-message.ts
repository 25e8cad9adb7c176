import { join } from "node:path";
import { sealedKeyId } from "@ringback/e2e-crypto";
import { z } from "zod";
import { BoundedRecordFile } from "../files/bounded-record-file.js";
import type { Logger } from "../logger.js";

/**
 * `{data_dir}/last-sealed-message.json`: the key id named by the last sealed message a device sent this computer,
 * so `ringback doctor` can tell a device with another key, also while the daemon is down.
 */
export const LAST_SEALED_MESSAGE_FILE = "last-sealed-message.json";
/** The file's map holds one record under this id: only the latest message counts. */
const LATEST = "latest";
const FILE_FIELD = "messages";

/** The sealed messages a device sends over the relay link. */
export const SealedMessageKind = z.enum(["settings-request", "reply"]);
export type SealedMessageKind = z.infer<typeof SealedMessageKind>;

/** What is kept of a device's sealed message: the key id in its plaintext header, never the message or a key. */
export const LastSealedMessage = z.object({
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  kind: SealedMessageKind,
  receivedAt: z.string(),
  /** Whether this computer's key opened it when it came. */
  isOpened: z.boolean(),
});
export type LastSealedMessage = z.infer<typeof LastSealedMessage>;

/** The latest sealed message from a device, by its key id, in a private file that outlives the daemon. */
export class LastSealedMessageFile {
  readonly #file: BoundedRecordFile<LastSealedMessage>;

  private constructor(file: BoundedRecordFile<LastSealedMessage>) {
    this.#file = file;
  }

  static async load(dataDir: string, log: Logger): Promise<LastSealedMessageFile> {
    const file = await BoundedRecordFile.load({
      ...fileOptions(dataDir),
      kept: 1,
      log,
      unreadableMessage:
        "ringback doctor does not know the devices' key until a device sends a sealed message",
    });
    return new LastSealedMessageFile(file);
  }

  /**
   * Keeps the key id a device's sealed message names (read from its header, not opened here) as the latest. The
   * file is written in the background: the message it comes with never waits for this bookkeeping. A string that
   * is not a sealed one names no key and changes nothing.
   */
  record(kind: SealedMessageKind, sealed: string, isOpened: boolean, now = new Date()): void {
    let keyId: string;
    try {
      keyId = sealedKeyId(sealed);
    } catch {
      return;
    }
    this.#file.set(LATEST, { keyId, kind, receivedAt: now.toISOString(), isOpened });
  }

  /** Waits until the file holds the latest record. */
  flush(): Promise<void> {
    return this.#file.flush();
  }
}

/** The latest sealed message a device sent, read without changing the file; null when none is known. */
export async function readLastSealedMessage(dataDir: string): Promise<LastSealedMessage | null> {
  const records = await BoundedRecordFile.read(fileOptions(dataDir));
  return records?.get(LATEST) ?? null;
}

function fileOptions(dataDir: string) {
  return { path: join(dataDir, LAST_SEALED_MESSAGE_FILE), field: FILE_FIELD, record: LastSealedMessage };
}
