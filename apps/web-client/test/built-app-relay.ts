import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { DeviceCredentials } from "@ringback/protocol";
import { type LoopbackServer, listenOnLoopback } from "@ringback/test-kit";
import { serveBuiltApp } from "./serve-built-app.js";

/** Where the stand-in listens (`origin`, `close()`, async-disposable) and the device it lets the page create. */
export interface BuiltAppRelay extends LoopbackServer {
  readonly credentials: DeviceCredentials;
}

/** Answers the request with a JSON body; true, so a route can `return json(...)` to say it answered. */
type JsonAnswer = (status: number, body: unknown) => true;

/** A stand-in's own relay routes: true when it answered the request (now, or once its body is read). */
export type StandInRoutes = (
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  json: JsonAnswer,
) => boolean;

/**
 * Serves the built web app from `distDirectory` (unknown paths get index.html, as the relay's `--web-root` does) and
 * the stand-in's own relay `routes` (which see every request first), then those every page calls to get an account:
 * `GET /v1/setup` (open signup), `POST /v1/accounts` (`credentials`) and `PUT /v1/devices/me/name` (a device that
 * created its account with a phrase seals its name once its key is derived: taken and answered as the relay does) and
 * `GET /v1/key-rotations` (none: the page reads them at every connect); any other `/v1/` path gets the relay's 404. On 127.0.0.1 and a random port.
 */
export async function startBuiltAppRelay(
  distDirectory: string,
  credentials: DeviceCredentials,
  routes: StandInRoutes,
): Promise<BuiltAppRelay> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const json: JsonAnswer = (status, body) => {
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
      return true;
    };
    if (routes(request, response, path, json)) return;
    if (path === "/v1/setup") return json(200, { claimRequired: false, openSignup: true });
    if (path === "/v1/accounts" && request.method === "POST") return json(201, credentials);
    if (path === "/v1/devices/me/name" && request.method === "PUT")
      return renamed(request, credentials, json);
    if (path === "/v1/key-rotations" && request.method === "GET") return json(200, { rotations: [] });
    if (path.startsWith("/v1/")) return json(404, { error: { code: "not_found", message: "No such path." } });
    serveBuiltApp(distDirectory, path, response);
  });
  return { ...(await listenOnLoopback(server)), credentials };
}

/** `PUT /v1/devices/me/name` as the relay answers it: the name as sent, kept by nobody here. */
function renamed(request: IncomingMessage, credentials: DeviceCredentials, json: JsonAnswer): true {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString("utf8");
  });
  request.on("end", () => {
    json(200, { deviceId: credentials.deviceId, name: (JSON.parse(body) as { name: string }).name });
  });
  return true;
}
