import { type Agent, type ClientRequest, request } from "node:http";

const FRAME_END = Buffer.from("\n\n");
const CALL_FRAME = Buffer.from("event: call\ndata: ");
const EVENT_ID = Buffer.from('"eventId":"');
const QUOTE = '"'.charCodeAt(0);

/**
 * A lean SSE subscriber (raw HTTP, no EventSource): it scans the bytes for `call` frames and reports their event
 * ids without decoding the rest, so a thousand of them in one process measure the server rather than the client.
 */
export class SseSubscriber {
  /** The start of a frame not complete yet. */
  #tail: Buffer | null = null;
  #request: ClientRequest | null = null;
  onCall: (eventId: string) => void = () => {};
  /** Called when the server ends the stream (not when `close()` does). */
  onEnd: () => void = () => {};
  calls = 0;
  /** Whether the stream is open: opened, and neither ended by the server nor closed here. */
  isOpen = false;

  open(baseUrl: string, token: string, agent: Agent): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL("/v1/stream", baseUrl);
      this.#request = request(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream refused: ${response.statusCode}`));
          return;
        }
        response.on("data", (chunk: Buffer) => this.#feed(chunk));
        response.on("error", () => {});
        response.on("end", () => {
          if (!this.isOpen) return;
          this.isOpen = false;
          this.onEnd();
        });
        this.isOpen = true;
        resolve();
      });
      this.#request.on("error", reject);
      this.#request.end();
    });
  }

  close(): void {
    this.isOpen = false;
    this.#request?.destroy();
  }

  #feed(chunk: Buffer): void {
    const bytes = this.#tail ? Buffer.concat([this.#tail, chunk]) : chunk;
    let start = 0;
    let end = bytes.indexOf(FRAME_END, start);
    while (end !== -1) {
      const at = bytes.indexOf(CALL_FRAME, start);
      if (at !== -1 && at < end) {
        // The event id is the first field of the relayed event's JSON: read it without parsing the ciphertext.
        const idStart = bytes.indexOf(EVENT_ID, at) + EVENT_ID.length;
        this.calls++;
        this.onCall(bytes.toString("latin1", idStart, bytes.indexOf(QUOTE, idStart)));
      }
      start = end + FRAME_END.length;
      end = bytes.indexOf(FRAME_END, start);
    }
    this.#tail = start < bytes.length ? bytes.subarray(start) : null;
  }
}
