import {
  type CallDelivery,
  DeliveryReport,
  type DeviceCredentials,
  type DeviceDeliveryOutcome,
  type RelayedEvent,
} from "@ringback/protocol";
import { type StandInRoutes, startBuiltAppRelay } from "./built-app-relay.js";
import { readBody } from "./stand-in-computer.js";
import { TEST_ACCOUNT_ID } from "./test-relay-server.js";

interface RelayRequest {
  readonly method: string;
  readonly path: string;
}

interface CallRead {
  readonly eventId: string;
  readonly authorization: string | undefined;
}

/** A delivery outcome a device reported (`POST /v1/calls/<eventId>/deliveries`) for a call the relay has. */
interface DeliveryPost {
  readonly eventId: string;
  readonly outcome: DeviceDeliveryOutcome;
  readonly authorization: string | undefined;
}

/**
 * Serves the built app (dist/) and the relay routes a page and its service worker use around a push: account
 * creation, a stream that replays the calls in `replayed` on every connect and then stays quiet, `GET
 * /v1/calls/<eventId>` from `calls`, `POST /v1/calls/<eventId>/deliveries` (recorded in `deliveries`, 404 for a call
 * not in `calls`, as the relay answers), and the push routes (nobody subscribed). The real relay's push side is
 * tested in apps/relay; this stand-in lets Chromium run the service worker.
 */
export interface PushStandInRelay extends AsyncDisposable {
  readonly origin: string;
  readonly credentials: DeviceCredentials;
  readonly calls: Map<string, RelayedEvent>;
  readonly callReads: CallRead[];
  /** Every request to the relay's routes (`/v1/...`), in order of arrival. */
  readonly requests: RelayRequest[];
  /** Every delivery report accepted, in order of arrival (repeats included). */
  readonly deliveries: DeliveryPost[];
  /** Calls the stream sends (`event: call`) on every connect, before `synced`, as the relay's backlog does. */
  readonly replayed: RelayedEvent[];
  /** How many times a stream was opened. */
  readonly streamConnects: () => number;
  close(): Promise<void>;
}

export async function startPushStandInRelay(distDirectory: string): Promise<PushStandInRelay> {
  const credentials: DeviceCredentials = {
    // The account the tests derive their passphrase key with (keys are salted with the account since version 2).
    accountId: TEST_ACCOUNT_ID,
    deviceId: "dev_push_browser",
    deviceToken: "tok_push_browser_secret",
  };
  const calls = new Map<string, RelayedEvent>();
  const requests: RelayRequest[] = [];
  const callReads: CallRead[] = [];
  const deliveries: DeliveryPost[] = [];
  const replayed: RelayedEvent[] = [];
  let streamConnects = 0;
  const routes: StandInRoutes = (request, response, path, json) => {
    if (path.startsWith("/v1/")) requests.push({ method: request.method ?? "GET", path });
    if (path === "/v1/devices") return json(200, { devices: [] });
    if (path === "/v1/stream") {
      streamConnects++;
      response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      let seq = 0;
      let frames = "retry: 100\n\n";
      for (const call of replayed) {
        seq = Math.max(seq, call.seq);
        frames += `id: ${call.seq}\nevent: call\ndata: ${JSON.stringify(call)}\n\n`;
      }
      response.write(`${frames}id: ${seq}\nevent: synced\ndata: {"seq":${seq}}\n\n`);
      return true;
    }
    if (path === "/v1/push/subscription") {
      return json(200, {
        deviceId: credentials.deviceId,
        subscribed: false,
        endpoint: null,
        repeatSeconds: null,
        updatedAt: null,
      });
    }
    const callPath = path.match(/^\/v1\/calls\/([\w-]+)$/);
    if (callPath && request.method === "GET") {
      const eventId = callPath[1] ?? "";
      callReads.push({ eventId, authorization: request.headers.authorization });
      const call = calls.get(eventId);
      return call
        ? json(200, call)
        : json(404, { error: { code: "call_not_found", message: "The call has ended." } });
    }
    const deliveryPath = path.match(/^\/v1\/calls\/([\w-]+)\/deliveries$/);
    if (deliveryPath && request.method === "POST") {
      const eventId = deliveryPath[1] ?? "";
      const authorization = request.headers.authorization;
      readBody(request)
        .then((text) => {
          const report = DeliveryReport.safeParse(JSON.parse(text));
          if (!report.success)
            return json(400, { error: { code: "invalid_request", message: "Not a delivery report." } });
          if (!calls.has(eventId))
            return json(404, { error: { code: "call_not_found", message: "The call has ended." } });
          deliveries.push({ eventId, outcome: report.data.outcome, authorization });
          const delivery: CallDelivery = {
            seq: deliveries.length,
            eventId,
            deviceId: credentials.deviceId,
            deviceName: "Browser",
            outcome: report.data.outcome,
            at: new Date().toISOString(),
          };
          return json(200, delivery);
        })
        .catch(() => json(400, { error: { code: "invalid_request", message: "Not JSON." } }));
      return true;
    }
    return false;
  };
  return {
    ...(await startBuiltAppRelay(distDirectory, credentials, routes)),
    calls,
    requests,
    callReads,
    deliveries,
    replayed,
    streamConnects: () => streamConnects,
  };
}
