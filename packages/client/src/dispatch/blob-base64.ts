/** Bytes per `String.fromCharCode` call: large enough to be quick, small enough for the engine's argument limit. */
const CHUNK_BYTES = 0x8000;

/** A file's bytes as standard base64, the `data` of `POST /tracker/uploads`. */
export async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES)
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK_BYTES));
  return btoa(binary);
}
