import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RingbackError } from "@ringback/protocol";
import { Base64Stream } from "./base64-stream.js";
import { IMAGE_SIGNATURE_BYTES, imageTypeOf } from "./image-type.js";
import { UploadJsonScanner } from "./upload-json-scanner.js";

/** Names, types and workspace ids of an upload body are short. */
const UPLOAD_FIELD_MAX_CHARS = 1024;
const IMAGE_FILE_NAME = "image";

export interface ReceivedUpload {
  /** Every field but `data`. */
  fields: Record<string, string | null>;
  /** The decoded image, in a private temporary file. */
  path: string;
  size: number;
  /** The type the image's first bytes show. */
  imageType: string;
  /** Deletes the temporary file. */
  remove(): Promise<void>;
}

export interface ReceiveUploadOptions {
  maxBodyBytes: number;
  maxImageBytes: number;
}

/**
 * Reads an upload body `{name, type, data, workspaceId?}` as it arrives: `data` is base64-decoded piece by
 * piece straight into a temporary file (mode 600, in a directory of mode 700), so neither the body nor the
 * image is ever held whole in memory. Refused as soon as it is known: a body over `maxBodyBytes` (413
 * `payload_too_large`), an image over `maxImageBytes` or whose first bytes are not an image's (400
 * `invalid_dispatch`), malformed JSON (400 `invalid_request`).
 */
export async function receiveUpload(
  body: ReadableStream<Uint8Array> | null,
  options: ReceiveUploadOptions,
): Promise<ReceivedUpload> {
  const directory = await mkdtemp(join(tmpdir(), "ringback-upload-"));
  const remove = () => rm(directory, { recursive: true, force: true });
  const path = join(directory, IMAGE_FILE_NAME);
  const file = await open(path, "wx", 0o600);
  const image = new ImageSink(options.maxImageBytes);
  const base64 = new Base64Stream();
  const pending: Buffer[] = [];
  const scanner = new UploadJsonScanner({
    streamedField: "data",
    maxFieldChars: UPLOAD_FIELD_MAX_CHARS,
    onStreamed: (text) => pending.push(base64.push(text)),
  });
  const reader = body?.getReader();
  let isReceived = false;
  try {
    let received = 0;
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      received += next.value.byteLength;
      if (received > options.maxBodyBytes) {
        throw new RingbackError("payload_too_large", `The body is over ${options.maxBodyBytes} bytes.`);
      }
      scanner.push(next.value);
      for (const piece of pending.splice(0)) await file.write(image.accept(piece));
    }
    scanner.end();
    if (!scanner.hasStreamed) throw new RingbackError("invalid_request", "data: required");
    await file.write(image.accept(base64.end()));
    const imageType = image.finish();
    isReceived = true;
    return { fields: Object.fromEntries(scanner.fields), path, size: image.size, imageType, remove };
  } catch (error) {
    // The rest of the body is not wanted.
    await reader?.cancel().catch(() => undefined);
    throw error;
  } finally {
    await file.close();
    if (!isReceived) await remove();
  }
}

/** Counts the decoded bytes and checks the first ones as soon as there are enough of them. */
class ImageSink {
  size = 0;
  #head = Buffer.alloc(0);
  #type: string | undefined;
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  accept(piece: Buffer): Buffer {
    this.size += piece.byteLength;
    if (this.size > this.#maxBytes) {
      throw new RingbackError("invalid_dispatch", `The image is over ${this.#maxBytes} bytes.`);
    }
    if (this.#type === undefined && this.#head.byteLength < IMAGE_SIGNATURE_BYTES) {
      this.#head = Buffer.concat([
        this.#head,
        piece.subarray(0, IMAGE_SIGNATURE_BYTES - this.#head.byteLength),
      ]);
      if (this.#head.byteLength === IMAGE_SIGNATURE_BYTES) this.#type = this.#recognise();
    }
    return piece;
  }

  finish(): string {
    return this.#type ?? this.#recognise();
  }

  #recognise(): string {
    const type = imageTypeOf(this.#head);
    if (!type)
      throw new RingbackError("invalid_dispatch", "The upload is not a PNG, JPEG, GIF or WebP image.");
    return type;
  }
}
