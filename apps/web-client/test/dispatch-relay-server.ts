import { createServer } from "node:http";
import { type E2eKey, isE2eError } from "@ringback/e2e-crypto";
import { type DeviceInfo, ERROR_STATUS, errorBody } from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";
import { forwardRequest } from "./forward-request.js";
import { answerRelayedSettings, readBody, type StandInDaemon } from "./stand-in-computer.js";
import { startTestRelayServer, type TestRelayServer } from "./test-relay-server.js";

/** The computer's relay device id in the dispatch tests. */
export const COMPUTER_ID = "dev_computer";

/** Another computer in the account, listed by `GET /v1/devices`; it never answers (the relay says it is offline). */
export interface OtherComputer {
  readonly id: string;
  readonly name: string;
  readonly online: boolean;
}

export interface DispatchRelayServer extends AsyncDisposable {
  readonly origin: string;
  readonly relay: TestRelayServer;
  close(): Promise<void>;
}

/**
 * The test relay (dist/, accounts, stream) with a computer in the account: `GET /v1/devices` lists it online, and
 * `POST /v1/devices/<id>/settings` is opened with the account's key and answered by `daemon`, sealed back, as the
 * relay and the daemon's link would; a request sealed with another key gets the daemon's 400 `undecryptable_request`.
 * `otherComputers` are listed too and answered 503 `computer_offline`. Every other request goes to the test relay
 * unchanged.
 */
export async function startDispatchRelayServer(
  distDirectory: string,
  key: () => Promise<E2eKey>,
  daemon: StandInDaemon,
  options: { otherComputers?: readonly OtherComputer[] } = {},
): Promise<DispatchRelayServer> {
  const others = options.otherComputers ?? [];
  const relay = await startTestRelayServer(distDirectory);
  const upstream = new URL(relay.origin);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (path === "/v1/devices" && request.method === "GET") {
      json(200, { devices: [...otherDevices(others), ...devices(relay.credentials.deviceId)] });
      return;
    }
    if (path === `/v1/devices/${COMPUTER_ID}/settings` && request.method === "POST") {
      readBody(request)
        .then(async (text) =>
          json(200, await answerRelayedSettings(await key(), COMPUTER_ID, JSON.parse(text), daemon)),
        )
        .catch((error: unknown) =>
          // Sealed with another key: the daemon's plaintext refusal, passed on by the relay.
          isE2eError(error)
            ? json(ERROR_STATUS.undecryptable_request, errorBody("undecryptable_request"))
            : json(500, { error: { code: "internal_error", message: String(error) } }),
        );
      return;
    }
    if (others.some((other) => path === `/v1/devices/${other.id}/settings`) && request.method === "POST") {
      json(ERROR_STATUS.computer_offline, errorBody("computer_offline"));
      return;
    }
    forwardRequest(request, response, upstream);
  });
  const listening = await listenOnLoopback(server);
  const close = async () => {
    await listening.close();
    await relay.close();
  };
  return {
    origin: listening.origin,
    relay,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function otherDevices(others: readonly OtherComputer[]): DeviceInfo[] {
  const at = new Date(0).toISOString();
  return others.map((other) => ({
    ...other,
    kind: "computer",
    createdAt: at,
    lastSeenAt: at,
    isCurrent: false,
  }));
}

function devices(browserId: string): DeviceInfo[] {
  const at = new Date(0).toISOString();
  return [
    {
      id: browserId,
      name: "This browser",
      kind: "browser",
      createdAt: at,
      lastSeenAt: null,
      online: true,
      isCurrent: true,
    },
    {
      id: COMPUTER_ID,
      name: "Workstation",
      kind: "computer",
      createdAt: at,
      lastSeenAt: at,
      online: true,
      isCurrent: false,
    },
  ];
}
