import { DaemonToRelayMessage, LINK_CLOSE_CODES, type RelayToDaemonMessage } from "@ringback/protocol";
import type { RawData, WebSocket } from "ws";
import type { RelayLog } from "../log.js";
import type { DeviceRecord } from "../store/store.js";

export interface DaemonLinkHandlers {
  /**
   * A link opened. `close` closes this link (never a newer one of the same device); the returned function runs
   * when this link closes, whether or not a newer one replaced it.
   */
  opened(device: DeviceRecord, close: (code: number, reason: string) => void): () => void;
  message(device: DeviceRecord, message: DaemonToRelayMessage): void;
  closed(device: DeviceRecord): void;
}

interface Link {
  readonly device: DeviceRecord;
  readonly socket: WebSocket;
  hasAnsweredPing: boolean;
}

/** The computers' WebSocket links on this relay process: one per device, the newest replacing an older one. */
export class DaemonLinks {
  readonly #links = new Map<string, Link>();
  readonly #log: RelayLog;
  #handlers: DaemonLinkHandlers | null = null;

  constructor(log: RelayLog) {
    this.#log = log;
  }

  setHandlers(handlers: DaemonLinkHandlers): void {
    this.#handlers = handlers;
  }

  attach(device: DeviceRecord, socket: WebSocket): void {
    const previous = this.#links.get(device.id);
    const link: Link = { device, socket, hasAnsweredPing: true };
    this.#links.set(device.id, link);
    if (previous) previous.socket.close(LINK_CLOSE_CODES.replaced, "replaced by a newer link");
    socket.on("pong", () => {
      link.hasAnsweredPing = true;
    });
    socket.on("message", (data, isBinary) => this.#receive(link, data, isBinary));
    socket.on("error", () => socket.terminate());
    let onClosed: (() => void) | undefined;
    socket.on("close", () => {
      onClosed?.();
      if (this.#links.get(device.id) !== link) return;
      this.#links.delete(device.id);
      this.#log.line(`daemon link closed device=${device.id}`);
      this.#handlers?.closed(device);
    });
    this.#log.line(`daemon link open device=${device.id}${previous ? " (replaced an older link)" : ""}`);
    onClosed = this.#handlers?.opened(device, (code, reason) => socket.close(code, reason));
  }

  isOnline(deviceId: string): boolean {
    return this.#links.has(deviceId);
  }

  /** False when the device has no open link. */
  send(deviceId: string, message: RelayToDaemonMessage): boolean {
    const link = this.#links.get(deviceId);
    if (!link || link.socket.readyState !== link.socket.OPEN) return false;
    link.socket.send(JSON.stringify(message));
    return true;
  }

  close(deviceId: string, code: number, reason: string): void {
    this.#links.get(deviceId)?.socket.close(code, reason);
  }

  /** Pings every link; a link that did not answer the previous ping is dropped. */
  pingAll(): void {
    for (const link of this.#links.values()) {
      if (!link.hasAnsweredPing) {
        this.#log.line(`daemon link dropped (no pong) device=${link.device.id}`);
        link.socket.terminate();
        continue;
      }
      link.hasAnsweredPing = false;
      link.socket.ping();
    }
  }

  closeAll(code: number, reason: string): void {
    for (const link of this.#links.values()) link.socket.close(code, reason);
  }

  #receive(link: Link, data: RawData, isBinary: boolean): void {
    let parsed: ReturnType<typeof DaemonToRelayMessage.safeParse> | null = null;
    if (!isBinary) {
      try {
        parsed = DaemonToRelayMessage.safeParse(JSON.parse(rawText(data)));
      } catch {
        parsed = null;
      }
    }
    if (!parsed?.success) {
      this.#log.line(`daemon link message ignored (not a known message) device=${link.device.id}`);
      return;
    }
    this.#handlers?.message(link.device, parsed.data);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data as ArrayBuffer).toString("utf8");
}
