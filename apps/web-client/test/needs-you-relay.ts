import type { E2eKey } from "@ringback/e2e-crypto";
import {
  type CallDelivery,
  type CallStatus,
  type CallStatusWrite,
  type DeviceCredentials,
  type DeviceInfo,
  errorBody,
  type RelayedEvent,
  type ReplyRequest,
  type ReplyStatusChange,
} from "@ringback/protocol";
import { RelayEventLog } from "../../../packages/client/test/relay-event-log.js";
import { type BuiltAppRelay, startBuiltAppRelay } from "./built-app-relay.js";
import { answerRelayedSettings, readBody, type StandInDaemon } from "./stand-in-computer.js";
import { TEST_ACCOUNT_ID } from "./test-relay-server.js";

/** The computer in the account: calls come from it, replies and settings requests go to it. */
export const COMPUTER_ID = "dev_computer";
const COMPUTER_NAME = "Workstation";

/** The two browsers, in the order they create their device (each `createAccount` gets the next). */
const DEVICES = [
  { deviceId: "dev_phone", name: "Phone", token: "tok_phone" },
  { deviceId: "dev_tablet", name: "Tablet", token: "tok_tablet" },
] as const;

/** A reply (or a decision) as it reached the relay, and from which device. */
interface SentReply {
  readonly eventId: string;
  readonly deviceId: string;
  readonly request: ReplyRequest;
}

/** How the computer settles a reply: what the relay then tells every device. */
export type ReplySettlement = Pick<ReplyStatusChange, "status" | "sealedReason" | "plaintextReason">;

/** The computer's daemon taking a reply: it opens it with the key and says how it settled it. */
export type SettleReply = (reply: SentReply) => Promise<ReplySettlement>;

/** A reply the computer took. */
export const DELIVERED: ReplySettlement = { status: "delivered", sealedReason: null, plaintextReason: null };

export interface NeedsYouRelay extends BuiltAppRelay {
  readonly replies: SentReply[];
  /** Status writes as they came: `<deviceId> <eventId> <status>`. */
  readonly statusWrites: string[];
  /** Relays a call to every device's stream, as the relay does after the daemon's event. */
  publish(event: Omit<RelayedEvent, "seq" | "status">): void;
}

/**
 * The relay for a "needs you" call between two browsers of one account and its computer, on 127.0.0.1: the built
 * app, account creation (one device each), the device list, the stream with backlog and resume, first-answer-wins
 * status writes with their `call-status` fan-out, delivery outcomes named by device, replies settled by `settle`
 * (the computer's daemon, opening them with the key) with their `reply-status` to every device, and the settings
 * relay to `daemon`. Tokens name the devices.
 */
export async function startNeedsYouRelay(
  distDirectory: string,
  key: () => Promise<E2eKey>,
  settle: SettleReply,
  daemon: StandInDaemon,
): Promise<NeedsYouRelay> {
  const log = new RelayEventLog();
  const calls = new Map<string, { status: CallStatus; answeredBy: string | null }>();
  const replies: SentReply[] = [];
  const statusWrites: string[] = [];
  const deliveries = new Set<string>();
  let created = 0;

  const deviceOf = (authorization: string | undefined) =>
    DEVICES.find((device) => authorization === `Bearer ${device.token}`);
  const listed = (currentId: string): DeviceInfo[] => [
    ...DEVICES.slice(0, created).map((device) => ({
      id: device.deviceId,
      name: device.name,
      kind: "phone" as const,
      createdAt: new Date(0).toISOString(),
      lastSeenAt: null,
      online: true,
      isCurrent: device.deviceId === currentId,
    })),
    {
      id: COMPUTER_ID,
      name: COMPUTER_NAME,
      kind: "computer",
      createdAt: new Date(0).toISOString(),
      lastSeenAt: null,
      online: true,
      isCurrent: false,
    },
  ];

  const writeStatus = (eventId: string, deviceId: string, status: CallStatusWrite) => {
    const call = calls.get(eventId);
    if (!call) return { code: 404, body: errorBody("not_found") };
    statusWrites.push(`${deviceId} ${eventId} ${status}`);
    if (status === "answered" && call.status === "answered" && call.answeredBy !== deviceId)
      return { code: 409, body: errorBody("call_already_answered") };
    const isOpen = call.status === "pending" || (call.status === "answered" && call.answeredBy === deviceId);
    if (!isOpen) return { code: 200, body: { eventId, status: call.status, won: false } };
    call.status = status;
    if (status === "answered") call.answeredBy = deviceId;
    const at = new Date().toISOString();
    log.append("call-status", (entrySeq) => ({ seq: entrySeq, eventId, status, deviceId, at }));
    return { code: 200, body: { eventId, status, won: true } };
  };

  const relay = await startBuiltAppRelay(
    distDirectory,
    DEVICES[0] as unknown as DeviceCredentials,
    (request, response, path, json) => {
      if (path === "/v1/accounts" && request.method === "POST") {
        const device = DEVICES[created];
        if (!device) return json(409, errorBody("invalid_request", "Both devices exist."));
        created += 1;
        return json(201, {
          accountId: TEST_ACCOUNT_ID,
          deviceId: device.deviceId,
          deviceToken: device.token,
        });
      }
      if (!path.startsWith("/v1/") || path === "/v1/setup") return false;
      const device = deviceOf(request.headers.authorization);
      if (!device) return json(401, errorBody("unauthorized"));
      if (path === "/v1/devices" && request.method === "GET")
        return json(200, { devices: listed(device.deviceId) });
      if (path === "/v1/stream") {
        log.openStream(request, response, 100, (eventId) => calls.get(eventId)?.status === "pending");
        return true;
      }
      const settings = /^\/v1\/devices\/([\w-]+)\/settings$/.exec(path);
      if (settings && request.method === "POST") {
        readBody(request)
          .then(async (text) =>
            json(200, await answerRelayedSettings(await key(), COMPUTER_ID, JSON.parse(text), daemon)),
          )
          .catch((error: unknown) => json(500, errorBody("internal_error", String(error))));
        return true;
      }
      const callRoute = /^\/v1\/calls\/([\w-]+)\/(status|deliveries|replies)$/.exec(path);
      if (!callRoute || request.method !== "POST") return false;
      const [, eventId = "", route] = callRoute;
      readBody(request)
        .then((text) => {
          const body = JSON.parse(text) as Record<string, unknown>;
          if (route === "status") {
            const answer = writeStatus(eventId, device.deviceId, body.status as CallStatusWrite);
            return json(answer.code, answer.body);
          }
          if (route === "deliveries") {
            const at = new Date().toISOString();
            const outcome = body.outcome as CallDelivery["outcome"];
            const recorded = { eventId, deviceId: device.deviceId, deviceName: device.name, outcome, at };
            const isNew = !deliveries.has(`${device.deviceId} ${eventId} ${outcome}`);
            deliveries.add(`${device.deviceId} ${eventId} ${outcome}`);
            json(200, { seq: log.seq + 1, ...recorded });
            if (isNew) log.append("call-delivery", (entrySeq) => ({ seq: entrySeq, ...recorded }));
            return true;
          }
          const reply: SentReply = {
            eventId,
            deviceId: device.deviceId,
            request: body as unknown as ReplyRequest,
          };
          replies.push(reply);
          json(202, { replyId: reply.request.replyId, eventId, status: "queued" });
          // The computer settled it: the relay tells every device on the stream.
          settle(reply)
            .then((settled) =>
              log.append("reply-status", (entrySeq) => ({
                seq: entrySeq,
                eventId,
                replyId: reply.request.replyId,
                ...settled,
                at: new Date().toISOString(),
              })),
            )
            .catch((error: unknown) =>
              console.error("The stand-in computer could not settle a reply.", error),
            );
          return true;
        })
        .catch((error: unknown) => json(500, errorBody("internal_error", String(error))));
      return true;
    },
  );

  return {
    ...relay,
    replies,
    statusWrites,
    publish(event) {
      calls.set(event.eventId, { status: "pending", answeredBy: null });
      log.append("call", (entrySeq) => ({ ...event, seq: entrySeq, status: "pending" }));
    },
  };
}
