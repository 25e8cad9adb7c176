import { RINGTONE_FILE_MAX_BYTES } from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";
import type { KeyValueStore } from "../storage/key-value.js";
import { RINGTONE_INDEX_KEY, ringtoneFileKey } from "../storage/storage-keys.js";
import type { RingtoneFileInfo } from "./ringtone-list.js";

/** A ringtone file refused: `code` (and `problem`, the same word) says why. */
export class RingtoneFileError extends ClientError<"too_large" | "not_audio"> {
  override readonly name = "RingtoneFileError";
  constructor(readonly problem: "too_large" | "not_audio") {
    super(
      problem,
      problem === "too_large" ? "The ringtone file is over 10 MB." : "The ringtone file is not audio.",
    );
  }
}

function newToneId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The user's ringtone files, kept on the device (IndexedDB), at most RINGTONE_FILE_MAX_BYTES each. */
export class RingtoneFiles {
  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The files' names and sizes, from an index kept apart so that listing never reads the audio. */
  async list(): Promise<RingtoneFileInfo[]> {
    const index = await this.store.get<unknown>(RINGTONE_INDEX_KEY);
    return Array.isArray(index) ? (index as RingtoneFileInfo[]) : [];
  }

  /** Adds a file; refuses one over 10 MB or that is not audio. */
  async add(file: { name: string; type: string; data: ArrayBuffer }): Promise<RingtoneFileInfo> {
    if (file.data.byteLength > RINGTONE_FILE_MAX_BYTES) throw new RingtoneFileError("too_large");
    if (!file.type.startsWith("audio/")) throw new RingtoneFileError("not_audio");
    const info: RingtoneFileInfo = {
      id: newToneId(),
      name: file.name.replace(/\.[^.]+$/, "") || file.name,
      type: file.type,
      size: file.data.byteLength,
      addedAt: this.now().toISOString(),
    };
    await this.store.set(ringtoneFileKey(info.id), file.data);
    await this.store.set(RINGTONE_INDEX_KEY, [...(await this.list()), info]);
    return info;
  }

  async read(id: string): Promise<ArrayBuffer | null> {
    return (await this.store.get<ArrayBuffer>(ringtoneFileKey(id))) ?? null;
  }

  async remove(id: string): Promise<void> {
    await this.store.set(
      RINGTONE_INDEX_KEY,
      (await this.list()).filter((info) => info.id !== id),
    );
    await this.store.delete(ringtoneFileKey(id));
  }
}
