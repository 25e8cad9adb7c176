import type { IncomingMessage } from "node:http";
import type { DeviceCredentials, DeviceInfo } from "@ringback/protocol";
import { type BuiltAppRelay, type StandInRoutes, startBuiltAppRelay } from "./built-app-relay.js";

/** The account the page creates: a passphrase key is salted with its id. */
export const NAMES_ACCOUNT_ID = "acc_names";

export interface DeviceNamesRelay extends BuiltAppRelay {
  /** Every body the page sent, as it came: what a relay could read. */
  readonly bodies: string[];
  /** The names the page set with `PUT /v1/devices/me/name`, in order. */
  readonly renames: string[];
  /** The `deviceName` the page created its account with. */
  readonly createdWith: () => string | null;
}

/**
 * A relay stand-in for the page's device names: it takes the account (and keeps the name it came with), lists the
 * page's device under the name it last sent, then `others` as given, takes `PUT /v1/devices/me/name`, holds the event
 * stream open, and answers a relayed settings request 503 `computer_offline` (no computer runs here).
 */
export async function startDeviceNamesRelay(
  distDirectory: string,
  others: readonly DeviceInfo[],
): Promise<DeviceNamesRelay> {
  const credentials: DeviceCredentials = {
    accountId: NAMES_ACCOUNT_ID,
    deviceId: "dev_this",
    deviceToken: "tok_names_secret",
  };
  const bodies: string[] = [];
  const renames: string[] = [];
  const state: { createdWith: string | null; listedName: string } = { createdWith: null, listedName: "" };
  const withBody = (request: IncomingMessage, answer: (body: string) => void) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      bodies.push(body);
      answer(body);
    });
  };
  const routes: StandInRoutes = (request, response, path, json) => {
    if (path === "/v1/accounts" && request.method === "POST") {
      withBody(request, (body) => {
        state.createdWith = (JSON.parse(body) as { deviceName: string }).deviceName;
        state.listedName = state.createdWith;
        json(201, credentials);
      });
      return true;
    }
    if (path === "/v1/devices/me/name" && request.method === "PUT") {
      withBody(request, (body) => {
        const { name } = JSON.parse(body) as { name: string };
        renames.push(name);
        state.listedName = name;
        json(200, { deviceId: credentials.deviceId, name });
      });
      return true;
    }
    if (path === "/v1/devices" && request.method === "GET") {
      const self: DeviceInfo = {
        id: credentials.deviceId,
        name: state.listedName,
        kind: "browser",
        createdAt: new Date(0).toISOString(),
        lastSeenAt: null,
        online: true,
        isCurrent: true,
      };
      return json(200, { devices: [self, ...others] });
    }
    if (/^\/v1\/devices\/[\w-]+\/settings$/.test(path) && request.method === "POST") {
      withBody(request, () => json(503, { error: { code: "computer_offline", message: "Not connected." } }));
      return true;
    }
    if (path === "/v1/stream") {
      response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      response.write('retry: 100\n\nid: 0\nevent: synced\ndata: {"seq":0}\n\n');
      return true;
    }
    return false;
  };
  const relay = await startBuiltAppRelay(distDirectory, credentials, routes);
  return { ...relay, bodies, renames, createdWith: () => state.createdWith };
}
