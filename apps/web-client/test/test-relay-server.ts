import type { ServerResponse } from "node:http";
import { deriveKeyFromPassphrase, type E2eKey } from "@ringback/e2e-crypto";
import type {
  CallDelivery,
  CallStatusWrite,
  DeliveryReport,
  DeviceCredentials,
  DeviceDeliveryOutcome,
  ReplyRequest,
  ReplyStatusChange,
} from "@ringback/protocol";
import { type StandInRoutes, startBuiltAppRelay } from "./built-app-relay.js";

interface StatusWrite {
  readonly eventId: string;
  readonly status: CallStatusWrite;
  readonly authorization: string | undefined;
}

/** One `POST /v1/calls/<eventId>/deliveries` as it reached the stand-in, refused or not. */
interface DeliveryWrite {
  readonly eventId: string;
  readonly outcome: DeviceDeliveryOutcome;
  readonly authorization: string | undefined;
  readonly answeredWith: number;
}

interface ReplyWrite {
  readonly eventId: string;
  readonly request: ReplyRequest;
}

/** How the computer settles the replies the page sends (pushed as `reply-status` on the newest stream). */
type ReplyOutcome = Pick<ReplyStatusChange, "status" | "sealedReason" | "plaintextReason">;
/** A fixed outcome, or one made for the reply (a reason sealed for its replyId). */
type ReplyOutcomeSource = ReplyOutcome | ((reply: ReplyWrite) => Promise<ReplyOutcome>);

export interface TestRelayServer extends AsyncDisposable {
  readonly origin: string;
  readonly credentials: DeviceCredentials;
  readonly statusWrites: StatusWrite[];
  readonly replies: ReplyWrite[];
  /** Every delivery report the page sent, in order, with the status it got. */
  readonly deliveryWrites: DeliveryWrite[];
  /** The delivery outcomes recorded, one per call and outcome at its first time (as the relay keeps them). */
  readonly deliveries: CallDelivery[];
  /** The next this many delivery reports get 503, as from a relay that is briefly unavailable. */
  deliveryRefusals: number;
  /** The outcome pushed after each reply is accepted; "delivered" unless a test sets another. */
  replyOutcome: ReplyOutcomeSource;
  /** Resolves with the n-th SSE stream the page opened (from 0). */
  stream(index: number): Promise<ServerResponse>;
  close(): Promise<void>;
}

/** The account the page joins: a passphrase key is salted with its id (passphrase keys version 2). */
export const TEST_ACCOUNT_ID = "acc_test";

/** The test account's key as the page derives it from `phrase`: derived once, on first use (PBKDF2 takes a while). */
export function accountKeyFrom(phrase: string): () => Promise<E2eKey> {
  let key: Promise<E2eKey> | null = null;
  return () => (key ??= deriveKeyFromPassphrase(phrase, TEST_ACCOUNT_ID));
}

/** The name this device joined with, as the relay keeps it (and stamps on its delivery outcomes). */
const DEVICE_NAME = "This browser";

/**
 * Serves the built web app from dist/ (unknown paths get index.html, as the relay's `--web-root` does) and the few
 * relay routes the page calls, on 127.0.0.1 and a random port. The real relay is another app; this stand-in lets the
 * browser test drive the page alone. A delivery report is recorded once per call and outcome and sent back on the
 * newest stream as `call-delivery`, as the relay does.
 */
export async function startTestRelayServer(distDirectory: string): Promise<TestRelayServer> {
  const credentials: DeviceCredentials = {
    accountId: TEST_ACCOUNT_ID,
    deviceId: "dev_browser",
    deviceToken: "tok_browser_secret",
  };
  const statusWrites: StatusWrite[] = [];
  const replies: ReplyWrite[] = [];
  const deliveryWrites: DeliveryWrite[] = [];
  const deliveries: CallDelivery[] = [];
  const refusals = { remaining: 0 };
  let replySeq = 1_000_000;
  let deliverySeq = 2_000_000;
  const outcome: { current: ReplyOutcomeSource } = {
    current: { status: "delivered", sealedReason: null, plaintextReason: null },
  };
  const streams: ServerResponse[] = [];
  const waiters = new Map<number, (response: ServerResponse) => void>();
  const routes: StandInRoutes = (request, response, path, json) => {
    // This device is the account's only one: no computer to relay daemon requests to.
    if (path === "/v1/devices" && request.method === "GET") {
      const device = {
        id: credentials.deviceId,
        name: DEVICE_NAME,
        kind: "browser",
        createdAt: new Date(0).toISOString(),
        lastSeenAt: null,
        online: true,
        isCurrent: true,
      };
      return json(200, { devices: [device] });
    }
    if (path === "/v1/stream") {
      response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      response.write("retry: 100\n\n");
      streams.push(response);
      waiters.get(streams.length - 1)?.(response);
      return true;
    }
    const statusPath = path.match(/^\/v1\/calls\/([\w-]+)\/status$/);
    if (statusPath && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        const { status } = JSON.parse(body) as { status: CallStatusWrite };
        statusWrites.push({ eventId: statusPath[1]!, status, authorization: request.headers.authorization });
        json(200, { eventId: statusPath[1], status, won: true });
      });
      return true;
    }
    const deliveryPath = path.match(/^\/v1\/calls\/([\w-]+)\/deliveries$/);
    if (deliveryPath && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        const eventId = deliveryPath[1]!;
        const { outcome } = JSON.parse(body) as DeliveryReport;
        const authorization = request.headers.authorization;
        if (refusals.remaining > 0) {
          refusals.remaining -= 1;
          deliveryWrites.push({ eventId, outcome, authorization, answeredWith: 503 });
          return json(503, { error: { code: "unavailable", message: "Try again later." } });
        }
        deliveryWrites.push({ eventId, outcome, authorization, answeredWith: 200 });
        // Recorded once, at its first time: a repeat answers the recorded one and sends nothing new.
        const known = deliveries.find((entry) => entry.eventId === eventId && entry.outcome === outcome);
        if (known) return json(200, known);
        deliverySeq += 1;
        const recorded: CallDelivery = {
          seq: deliverySeq,
          eventId,
          deviceId: credentials.deviceId,
          deviceName: DEVICE_NAME,
          outcome,
          at: new Date().toISOString(),
        };
        deliveries.push(recorded);
        json(200, recorded);
        streams
          .at(-1)
          ?.write(`id: ${deliverySeq}\nevent: call-delivery\ndata: ${JSON.stringify(recorded)}\n\n`);
      });
      return true;
    }
    const replyPath = path.match(/^\/v1\/calls\/([\w-]+)\/replies$/);
    if (replyPath && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        const eventId = replyPath[1]!;
        const reply = JSON.parse(body) as ReplyRequest;
        const write = { eventId, request: reply };
        replies.push(write);
        json(202, { replyId: reply.replyId, eventId, status: "queued" });
        // The computer settled it: the relay tells every device on the stream.
        const source = outcome.current;
        (typeof source === "function" ? source(write) : Promise.resolve(source))
          .then((settled) => {
            replySeq += 1;
            const change: ReplyStatusChange = {
              seq: replySeq,
              eventId,
              replyId: reply.replyId,
              ...settled,
              at: new Date().toISOString(),
            };
            streams
              .at(-1)
              ?.write(`id: ${replySeq}\nevent: reply-status\ndata: ${JSON.stringify(change)}\n\n`);
          })
          .catch((error: unknown) => console.error("The test's reply outcome failed.", error));
      });
      return true;
    }
    return false;
  };
  return {
    ...(await startBuiltAppRelay(distDirectory, credentials, routes)),
    statusWrites,
    replies,
    deliveryWrites,
    deliveries,
    get deliveryRefusals() {
      return refusals.remaining;
    },
    set deliveryRefusals(count) {
      refusals.remaining = count;
    },
    get replyOutcome() {
      return outcome.current;
    },
    set replyOutcome(next) {
      outcome.current = next;
    },
    stream(index) {
      const open = streams[index];
      if (open) return Promise.resolve(open);
      return new Promise((resolve) => waiters.set(index, resolve));
    },
  };
}
