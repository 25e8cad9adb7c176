import type { IncomingMessage, ServerResponse } from "node:http";

/** Request bodies larger than this are refused (the upload route reads its own body). */
const JSON_BODY_MAX_BYTES = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** The tracker's error body: `{"error": "<text>"}`. */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers?: Record<string, string>,
) {
  sendJson(response, status, { error: message }, headers);
}

export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > JSON_BODY_MAX_BYTES) throw new HttpError(400, "invalid request body");
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
    return value as Record<string, unknown>;
  } catch {
    throw new HttpError(400, "invalid request body");
  }
}
