import { type ClientRequest, request } from "node:http";

const CALL_FRAME = "event: call\ndata: ";

/**
 * A lean SSE subscriber (raw HTTP, no EventSource): it only finds `call` frames and reports their event ids, so
 * a thousand of them in one process measure the relay rather than the client.
 */
export class SseSubscriber {
  #buffer = "";
  #request: ClientRequest | null = null;
  onCall: (eventId: string) => void = () => {};
  calls = 0;

  open(baseUrl: string, token: string, agent: import("node:http").Agent): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = new URL("/v1/stream", baseUrl);
      this.#request = request(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream refused: ${response.statusCode}`));
          return;
        }
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => this.#feed(chunk));
        response.on("error", () => {});
        resolve();
      });
      this.#request.on("error", reject);
      this.#request.end();
    });
  }

  close(): void {
    this.#request?.destroy();
  }

  #feed(chunk: string): void {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf("\n\n");
    while (end !== -1) {
      const frame = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const at = frame.indexOf(CALL_FRAME);
      if (at !== -1) {
        // The event id is the first field of the relayed event's JSON: read it without parsing the ciphertext.
        const idStart = frame.indexOf('"eventId":"', at) + '"eventId":"'.length;
        this.calls++;
        this.onCall(frame.slice(idStart, frame.indexOf('"', idStart)));
      }
      end = this.#buffer.indexOf("\n\n");
    }
  }
}
