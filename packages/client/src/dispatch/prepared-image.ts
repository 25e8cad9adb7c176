/** An image ready for `POST /tracker/uploads`: its name, type and base64 bytes, converted when the rule says so. */
export interface PreparedImage {
  readonly name: string;
  readonly type: string;
  readonly bytes: number;
  /** Base64 of the bytes that are uploaded. */
  readonly data: string;
  readonly isConverted: boolean;
  /** What the screen shows as a thumbnail: the uploaded bytes. */
  readonly blob: Blob;
}

/** Reads a picked, pasted or dropped file and makes it ready to upload. */
export type ImagePreparer = (file: File) => Promise<PreparedImage>;
