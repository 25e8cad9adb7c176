import {
  type DaemonToRelayMessage,
  LINK_CLOSE_CODES,
  RELAY_LINK_PING_MS,
  RELAY_SETTINGS_BODY_MAX_BYTES,
  RelayToDaemonMessage,
} from "@ringback/protocol";
import { type RawData, WebSocket } from "ws";
import type { Logger } from "../logger.js";
import { linkReconnectDelayMs } from "./link-backoff.js";

/** Where the relay takes a computer's link. */
const DAEMON_LINK_PATH = "/v1/daemon/link";
/** A handshake that takes longer is a relay in trouble: give up and try again later. */
const LINK_HANDSHAKE_TIMEOUT_MS = 10_000;
/** The relay pings every RELAY_LINK_PING_MS; two missed pings and a margin mean the link is dead. */
const LINK_SILENCE_MAX_MS = 2 * RELAY_LINK_PING_MS + 5000;
/** How long `stop` waits for the relay to acknowledge the close before cutting the socket. */
const LINK_CLOSE_WAIT_MS = 2000;
/** Room around the largest sealed settings request for the JSON message around it. */
const LINK_MESSAGE_OVERHEAD_BYTES = 4096;

export type RelayLinkState = "connecting" | "open" | "waiting" | "refused" | "stopped";

export interface RelayLinkOptions {
  serverUrl: string;
  deviceToken: string;
  log: Logger;
  /** Every valid message from the relay; answers go back through `send`. */
  onMessage(message: RelayToDaemonMessage): void;
  /** After every (re)connect: what this computer may have missed while the link was down is read then. */
  onOpen?(): void;
  /** The wait before the next attempt after `failedAttempts` failed ones (tests shorten it). */
  reconnectDelayMs?: (failedAttempts: number) => number;
  silenceMaxMs?: number;
}

/**
 * The daemon's WebSocket to the relay (`GET /v1/daemon/link`, the device token on the upgrade): reconnects with
 * backoff after any drop, and stops for good when the relay refuses the token (401) or removes the device
 * (close 4001) or another daemon with the same identity takes the link over (close 4000).
 */
export class RelayLink {
  readonly #options: RelayLinkOptions;
  #socket: WebSocket | null = null;
  #state: RelayLinkState = "stopped";
  #failedAttempts = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #silenceTimer: ReturnType<typeof setTimeout> | null = null;
  #refusedStatus: number | undefined;

  constructor(options: RelayLinkOptions) {
    this.#options = options;
  }

  get state(): RelayLinkState {
    return this.#state;
  }

  start(): void {
    if (this.#state !== "stopped") return;
    this.#connect();
  }

  /** Sends a message when the link is open; false when it is not (the relay asks again after a reconnect). */
  send(message: DaemonToRelayMessage): boolean {
    const socket = this.#socket;
    if (this.#state !== "open" || socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  /** Closes the link and stops reconnecting. */
  async stop(): Promise<void> {
    this.#state = "stopped";
    this.#clearTimers();
    const socket = this.#socket;
    this.#socket = null;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000, "daemon stopping");
    const timer = setTimeout(() => socket.terminate(), LINK_CLOSE_WAIT_MS);
    await closed;
    clearTimeout(timer);
  }

  #connect(): void {
    this.#state = "connecting";
    this.#refusedStatus = undefined;
    const socket = new WebSocket(linkUrl(this.#options.serverUrl), {
      headers: { authorization: `Bearer ${this.#options.deviceToken}` },
      handshakeTimeout: LINK_HANDSHAKE_TIMEOUT_MS,
      maxPayload: RELAY_SETTINGS_BODY_MAX_BYTES + LINK_MESSAGE_OVERHEAD_BYTES,
    });
    this.#socket = socket;
    let lastError = "";
    socket.on("unexpected-response", (_request, response) => {
      this.#refusedStatus = response.statusCode;
      response.resume();
      socket.terminate();
    });
    socket.on("open", () => {
      this.#state = "open";
      this.#failedAttempts = 0;
      this.#options.log(`relay link open (${this.#options.serverUrl})`);
      this.#expectTraffic();
      this.#options.onOpen?.();
    });
    socket.on("ping", () => this.#expectTraffic());
    socket.on("message", (data, isBinary) => {
      this.#expectTraffic();
      this.#receive(data, isBinary);
    });
    socket.on("error", (error) => {
      lastError = error.message;
    });
    socket.on("close", (code) => {
      if (this.#socket !== socket || this.#state === "stopped") return;
      this.#socket = null;
      this.#clearTimers();
      this.#closed(code, lastError);
    });
  }

  #closed(code: number, lastError: string): void {
    const wasOpen = this.#state === "open";
    if (this.#refusedStatus === 401 || code === LINK_CLOSE_CODES.deviceRemoved) {
      this.#state = "refused";
      this.#options.log(
        "relay link refused: the relay no longer accepts this computer's device token (removed from the " +
          "account?); not reconnecting. Run `ringback login` to pair this computer again.",
      );
      return;
    }
    if (code === LINK_CLOSE_CODES.replaced) {
      this.#state = "refused";
      this.#options.log(
        "relay link taken over by another daemon with this computer's identity; not reconnecting",
      );
      return;
    }
    this.#failedAttempts += 1;
    const delayMs = (this.#options.reconnectDelayMs ?? linkReconnectDelayMs)(this.#failedAttempts);
    const why =
      this.#refusedStatus !== undefined
        ? `the relay answered ${this.#refusedStatus}`
        : wasOpen
          ? `closed (${code})`
          : `could not connect${lastError ? ` (${lastError})` : ""}`;
    this.#options.log(
      `relay link ${wasOpen ? "lost" : "down"}: ${why}; reconnecting in ${(delayMs / 1000).toFixed(1)} s`,
    );
    this.#state = "waiting";
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      if (this.#state === "waiting") this.#connect();
    }, delayMs);
  }

  /** Restarts the silence timer: a link with no ping and no message for too long is dropped and reopened. */
  #expectTraffic(): void {
    if (this.#silenceTimer) clearTimeout(this.#silenceTimer);
    const socket = this.#socket;
    this.#silenceTimer = setTimeout(() => {
      this.#options.log("relay link silent for too long (no ping from the relay): reconnecting");
      socket?.terminate();
    }, this.#options.silenceMaxMs ?? LINK_SILENCE_MAX_MS);
  }

  #receive(data: RawData, isBinary: boolean): void {
    let parsed: ReturnType<typeof RelayToDaemonMessage.safeParse> | undefined;
    if (!isBinary) {
      try {
        parsed = RelayToDaemonMessage.safeParse(JSON.parse(rawText(data)));
      } catch {
        parsed = undefined;
      }
    }
    if (!parsed?.success) {
      this.#options.log("relay link: ignored a message that is not a known relay message");
      return;
    }
    this.#options.onMessage(parsed.data);
  }

  #clearTimers(): void {
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    if (this.#silenceTimer) clearTimeout(this.#silenceTimer);
    this.#reconnectTimer = null;
    this.#silenceTimer = null;
  }
}

/** `ws(s)://<relay>/v1/daemon/link`, keeping a path prefix of the relay's address. */
export function linkUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${DAEMON_LINK_PATH}`;
  url.search = "";
  url.hash = "";
  return url.toString();
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data as ArrayBuffer).toString("utf8");
}
