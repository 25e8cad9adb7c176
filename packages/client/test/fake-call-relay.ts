import { createServer } from "node:http";
import type { CallStatus, RelayedEvent, ReplyRequest, ReplyStatusChange } from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";
import { RelayEventLog } from "./relay-event-log.js";
import { readBody } from "./stand-in-computer.js";

/** A reply (or a decision) as it reached the relay, and the device that sent it. */
export interface RelayedReply {
  readonly deviceId: string;
  readonly eventId: string;
  readonly request: ReplyRequest;
}

/** How the computer settles a reply; the relay tells every device (`reply-status`). */
export type ReplySettlement = Pick<ReplyStatusChange, "status" | "sealedReason" | "plaintextReason">;

export interface FakeCallRelay extends AsyncDisposable {
  readonly origin: string;
  /** Status writes as they came: `<deviceId> <eventId> <status>`. */
  readonly statusWrites: string[];
  /** Delivery reports as they came: `<deviceId> <eventId> <outcome>`. */
  readonly deliveries: string[];
  /** Replies and decisions as they came, in order. */
  readonly replies: RelayedReply[];
  /** Every stream request's Last-Event-ID (null when absent), in order. */
  readonly resumedFrom: (string | null)[];
  /** Relays a call to every device's stream, as the relay does after a daemon's report. */
  publish(event: Omit<RelayedEvent, "seq" | "status">): void;
  close(): Promise<void>;
}

/**
 * The relay's calls side for several devices of one account, on 127.0.0.1: `GET /v1/stream` with backlog, `synced`
 * and resume by Last-Event-ID, the first-answer-wins status write with its `call-status` fan-out, and delivery
 * reports with their `call-delivery` fan-out, and replies settled by `settle` (the computer; delivered by default)
 * with their `reply-status` fan-out. Device tokens are `token-<deviceId>`. A delivery record names its device as
 * `deviceNames` has it (sealed, as devices send them now), else by its id, as an older client's plaintext name.
 */
export async function startFakeCallRelay(
  settle: (reply: RelayedReply) => Promise<ReplySettlement> = async () => ({
    status: "delivered",
    sealedReason: null,
    plaintextReason: null,
  }),
  deviceNames: Readonly<Record<string, string>> = {},
): Promise<FakeCallRelay> {
  const replies: RelayedReply[] = [];
  const log = new RelayEventLog();
  const calls = new Map<string, { event: RelayedEvent; status: CallStatus }>();
  const statusWrites: string[] = [];
  const deliveries: string[] = [];
  const resumedFrom: (string | null)[] = [];

  const server = createServer((request, response) => {
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    const token = /^Bearer token-(.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!token) return json(401, { error: { code: "unauthorized", message: "No token." } });
    const url = request.url ?? "";
    if (request.method === "GET" && url === "/v1/stream") {
      const lastEventId = request.headers["last-event-id"];
      resumedFrom.push(typeof lastEventId === "string" ? lastEventId : null);
      log.openStream(request, response, 20, (eventId) => calls.get(eventId)?.status === "pending");
      return;
    }
    const match = /^\/v1\/calls\/([^/]+)\/(status|deliveries|replies)$/.exec(url);
    if (request.method !== "POST" || !match) return json(404, { error: { code: "not_found", message: url } });
    const [, eventId = "", route] = match;
    const call = calls.get(eventId);
    if (!call) return json(404, { error: { code: "not_found", message: eventId } });
    readBody(request)
      .then((text) => {
        const body = JSON.parse(text) as { status?: CallStatus; outcome?: string };
        const at = new Date().toISOString();
        if (route === "replies") {
          const reply = { deviceId: token, eventId, request: body as unknown as ReplyRequest };
          replies.push(reply);
          json(202, { replyId: reply.request.replyId, eventId, status: "queued" });
          settle(reply)
            .then((settled) =>
              log.append("reply-status", (seq) => ({
                seq,
                eventId,
                replyId: reply.request.replyId,
                ...settled,
                at,
              })),
            )
            .catch((error: unknown) => console.error("The fake computer could not settle a reply.", error));
          return;
        }
        if (route === "deliveries") {
          deliveries.push(`${token} ${eventId} ${body.outcome}`);
          const deviceName = deviceNames[token] ?? token;
          const delivery = {
            eventId,
            deviceId: token,
            deviceName,
            deviceKind: "phone",
            outcome: body.outcome,
            at,
          };
          log.append("call-delivery", (seq) => ({ seq, ...delivery }));
          return json(200, { seq: log.seq, ...delivery });
        }
        statusWrites.push(`${token} ${eventId} ${body.status}`);
        if (call.status !== "pending") return json(200, { eventId, status: call.status, won: false });
        call.status = body.status ?? "pending";
        log.append("call-status", (seq) => ({ seq, eventId, status: call.status, deviceId: token, at }));
        return json(200, { eventId, status: call.status, won: true });
      })
      .catch(() => json(400, { error: { code: "invalid_request", message: "Unreadable body." } }));
  });
  const { origin, close } = await listenOnLoopback(server);
  const closeAll = async () => {
    log.closeStreams();
    await close();
  };
  return {
    origin,
    statusWrites,
    deliveries,
    replies,
    resumedFrom,
    publish(event) {
      log.append("call", (seq) => {
        const relayed: RelayedEvent = { ...event, seq, status: "pending" };
        calls.set(event.eventId, { event: relayed, status: "pending" });
        return relayed;
      });
    },
    close: closeAll,
    [Symbol.asyncDispose]: closeAll,
  };
}
