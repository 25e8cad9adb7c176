import type { ServerResponse } from "node:http";

/** Answers `status` with `body` as JSON (and any extra headers), then ends the response. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
