import type { DaemonToRelayMessage, RelayToDaemonMessage } from "@ringback/protocol";
import { Changes, eventually } from "@ringback/test-kit";
import WebSocket from "ws";

/** A simulated daemon: the WebSocket link with its device token. */
export class DaemonClient implements AsyncDisposable {
  readonly received: RelayToDaemonMessage[] = [];
  readonly socket: WebSocket;
  closeCode: number | null = null;
  /** Pings the relay sent on the link (answered unless connected with `autoPong: false`). */
  pings = 0;
  readonly #changes = new Changes();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on("message", (data) => {
      this.received.push(JSON.parse(data.toString()) as RelayToDaemonMessage);
      this.#changes.notify();
    });
    socket.on("close", (code) => {
      this.closeCode = code;
      this.#changes.notify();
    });
    socket.on("ping", () => {
      this.pings += 1;
      this.#changes.notify();
    });
  }

  /** Opens the link; rejects with the HTTP status and the error code when the relay refuses the upgrade. */
  static connect(
    baseUrl: string,
    token: string | null,
    options: { autoPong?: boolean; path?: string } = {},
  ): Promise<DaemonClient> {
    const url = new URL(options.path ?? "/v1/daemon/link", baseUrl.replace(/^http/, "ws"));
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    const socket = new WebSocket(url, { headers, autoPong: options.autoPong ?? true });
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve(new DaemonClient(socket)));
      socket.once("unexpected-response", (_request, response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => {
          reject(
            Object.assign(new Error(`upgrade refused: ${response.statusCode}`), {
              status: response.statusCode,
              code: errorCodeOf(body),
            }),
          );
          socket.terminate();
        });
      });
      socket.once("error", reject);
    });
  }

  send(message: DaemonToRelayMessage): void {
    this.socket.send(JSON.stringify(message));
  }

  waitFor<T extends RelayToDaemonMessage["type"]>(
    type: T,
    match: (message: Extract<RelayToDaemonMessage, { type: T }>) => boolean = () => true,
  ): Promise<Extract<RelayToDaemonMessage, { type: T }>> {
    return eventually(
      () =>
        this.received.find(
          (message): message is Extract<RelayToDaemonMessage, { type: T }> =>
            message.type === type && match(message as never),
        ),
      { what: `a "${type}" link message`, on: this.#changes },
    );
  }

  /** Resolves once the relay has sent `count` pings on the link (each after checking the one before was answered). */
  async waitForPings(count: number): Promise<void> {
    await eventually(() => this.pings >= count, { what: `${count} pings`, on: this.#changes });
  }

  waitForClose(): Promise<number> {
    return eventually(() => this.closeCode, { what: "the link to close", on: this.#changes });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.socket.once("close", resolve));
    this.socket.terminate();
    await closed;
  }
}

/** The `error.code` of a refusal's JSON body; null when it has none. */
function errorCodeOf(body: string): string | null {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}
