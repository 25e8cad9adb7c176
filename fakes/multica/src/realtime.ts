import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import type { Faults } from "./faults.js";
import { isUuid } from "./ids.js";
import type { RealtimeFrame } from "./records.js";
import type { RequestLog } from "./request-log.js";
import type { FakeMulticaState } from "./state.js";

/** The tracker pings every 54 s and drops a connection after 60 s without a pong. */
export const REALTIME_PING_INTERVAL_MS = 54_000;
/** The first frame must authenticate within 10 s. */
export const REALTIME_AUTH_TIMEOUT_MS = 10_000;
/** Inbound frame limit. */
const REALTIME_FRAME_MAX_BYTES = 64 * 1024;

export interface RealtimeOptions {
  pingIntervalMs?: number;
  authTimeoutMs?: number;
}

interface Connection {
  socket: WebSocket;
  /** Undefined when the query named a workspace id that does not exist: refused at auth. */
  workspaceId: string | undefined;
  userId: string | undefined;
  isAlive: boolean;
}

/** What a test controls of the realtime side. */
export interface RealtimeControls {
  /** Open, authenticated connections now. */
  readonly connections: number;
  /** Authenticated connections accepted since start. */
  readonly accepted: number;
  /** Cuts every connection without a close frame, as a network drop does. */
  dropAll(): void;
  /** While silent, connections stay open but nothing is sent on them (no events, pings or pongs). */
  setSilent(silent: boolean): void;
}

function rejectUpgrade(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * `GET /ws?workspace_id=<uuid>` (or `workspace_slug`): the first text frame authenticates with
 * `{"type":"auth","payload":{"token"}}` and gets `{"type":"auth_ack"}`; afterwards every event of the
 * workspace is broadcast to the connection (no subscribe needed).
 */
export class RealtimeHub implements RealtimeControls {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: REALTIME_FRAME_MAX_BYTES });
  private readonly clients = new Set<Connection>();
  private readonly pingTimer: NodeJS.Timeout;
  private readonly authTimeoutMs: number;
  private silent = false;
  accepted = 0;

  constructor(
    private readonly state: FakeMulticaState,
    private readonly faults: Faults,
    private readonly requests: RequestLog,
    options: RealtimeOptions = {},
  ) {
    this.authTimeoutMs = options.authTimeoutMs ?? REALTIME_AUTH_TIMEOUT_MS;
    this.pingTimer = setInterval(() => this.ping(), options.pingIntervalMs ?? REALTIME_PING_INTERVAL_MS);
    this.pingTimer.unref();
    state.onEvent((workspaceId, frame) => this.broadcast(workspaceId, frame));
  }

  get connections(): number {
    return [...this.clients].filter((client) => client.userId !== undefined).length;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.upgrade(request, socket, head).catch(() => socket.destroy());
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? "/", "http://fake-multica");
    this.requests.record(request.method ?? "GET", url, request.headers);
    const fault = this.faults.take(request.method ?? "GET", url.pathname);
    if (fault?.kind === "reset") return void socket.destroy();
    if (fault?.kind === "status") return rejectUpgrade(socket, fault.status, "Fault", "fault");
    if (fault?.kind === "delay") await delay(fault.delayMs);
    if (fault?.kind === "hold") await fault.released;
    if (url.pathname !== "/ws") return rejectUpgrade(socket, 404, "Not Found", "not found");

    let workspaceId: string | undefined;
    const slug = url.searchParams.get("workspace_slug");
    const id = url.searchParams.get("workspace_id");
    if (slug) {
      workspaceId = [...this.state.workspaces.values()].find((workspace) => workspace.slug === slug)?.id;
      if (!workspaceId) return rejectUpgrade(socket, 404, "Not Found", "workspace not found");
    } else if (id) {
      if (!isUuid(id)) return rejectUpgrade(socket, 400, "Bad Request", "invalid workspace_id");
      workspaceId = this.state.workspaces.has(id) ? id : undefined;
    } else {
      return rejectUpgrade(socket, 400, "Bad Request", "workspace_id or workspace_slug is required");
    }
    this.server.handleUpgrade(request, socket, head, (webSocket) => this.attach(webSocket, workspaceId));
  }

  private attach(socket: WebSocket, workspaceId: string | undefined): void {
    const client: Connection = { socket, workspaceId, userId: undefined, isAlive: true };
    this.clients.add(client);
    const authTimer = setTimeout(
      () => this.refuse(client, "expected auth message as first frame"),
      this.authTimeoutMs,
    );
    socket.on("pong", () => {
      client.isAlive = true;
    });
    socket.on("message", (data, isBinary) => {
      if (client.userId === undefined) clearTimeout(authTimer);
      this.receive(client, data, isBinary);
    });
    socket.on("close", () => {
      clearTimeout(authTimer);
      this.clients.delete(client);
    });
    socket.on("error", () => socket.terminate());
  }

  private receive(client: Connection, data: RawData, isBinary: boolean): void {
    let frame: { type?: unknown; payload?: { token?: unknown; scope?: unknown; id?: unknown } } = {};
    try {
      frame = isBinary ? {} : JSON.parse(data.toString());
    } catch {
      frame = {};
    }
    if (client.userId === undefined) {
      this.authenticate(client, frame);
      return;
    }
    if (this.silent) return;
    if (frame.type === "ping") this.send(client, { type: "pong" });
    if (frame.type === "subscribe" || frame.type === "unsubscribe") {
      this.send(client, {
        type: `${frame.type}_ack`,
        payload: { scope: frame.payload?.scope, id: frame.payload?.id },
      });
    }
  }

  private authenticate(client: Connection, frame: { type?: unknown; payload?: { token?: unknown } }): void {
    const refusal = this.authRefusal(client, frame);
    if (typeof refusal === "string") {
      this.refuse(client, refusal);
      return;
    }
    client.userId = refusal.id;
    this.accepted += 1;
    this.send(client, { type: "auth_ack" });
  }

  /** The user the first frame authenticates, or why it does not. */
  private authRefusal(client: Connection, frame: { type?: unknown; payload?: { token?: unknown } }) {
    if (frame.type !== "auth") return "expected auth message as first frame";
    const token = frame.payload?.token;
    // Only personal tokens (and web sessions) are accepted here; task and cloud-node tokens fail.
    const user =
      typeof token === "string" && token.startsWith("mul_") ? this.state.userByToken(token) : undefined;
    if (!user) return "invalid token";
    if (!client.workspaceId || !this.state.isMember(client.workspaceId, user.id)) {
      return "not a member of this workspace";
    }
    return user;
  }

  private refuse(client: Connection, message: string): void {
    this.send(client, { error: message });
    client.socket.close(1008, message);
  }

  private send(client: Connection, frame: unknown): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(frame));
  }

  broadcast(workspaceId: string, frame: RealtimeFrame): void {
    if (this.silent) return;
    for (const client of this.clients) {
      if (client.userId !== undefined && client.workspaceId === workspaceId) this.send(client, frame);
    }
  }

  private ping(): void {
    if (this.silent) return;
    for (const client of this.clients) {
      if (!client.isAlive) {
        client.socket.terminate();
        continue;
      }
      client.isAlive = false;
      client.socket.ping();
    }
  }

  dropAll(): void {
    for (const client of this.clients) client.socket.terminate();
  }

  setSilent(silent: boolean): void {
    this.silent = silent;
  }

  close(): void {
    clearInterval(this.pingTimer);
    this.dropAll();
    this.server.close();
  }
}
