import type { ZodType } from "zod";
import { RelayError, relayErrorFrom } from "./relay-error.js";

/** Where a device's relay requests go, and as whom. */
export interface RelayConnection {
  /** The relay's base address, without `/v1` and without a trailing slash. */
  readonly serverUrl: string;
  /** Sent as `Authorization: Bearer` when set. */
  readonly deviceToken: string | undefined;
  readonly fetch: typeof fetch;
}

/** A connection from a client's options: the address without a trailing slash, the global `fetch` by default. */
export function relayConnection(options: {
  serverUrl: string;
  deviceToken?: string | undefined;
  fetch?: typeof fetch | undefined;
}): RelayConnection {
  return {
    serverUrl: options.serverUrl.replace(/\/+$/, ""),
    deviceToken: options.deviceToken,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}

/**
 * One JSON request to a relay route, its answer checked against `schema`. Fails with a `RelayError`: status null
 * when the relay could not be reached, the relay's code for a refusal, and an answer of another shape.
 */
export async function requestRelay<T>(
  connection: RelayConnection,
  method: string,
  path: string,
  schema: ZodType<T>,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (connection.deviceToken) headers.Authorization = `Bearer ${connection.deviceToken}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await connection.fetch(`${connection.serverUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new RelayError(null, null, `The relay at ${connection.serverUrl} could not be reached.`, { cause });
  }
  if (!response.ok) throw await relayErrorFrom(response);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new RelayError(
      response.status,
      null,
      `The relay's answer to ${method} ${path} has an unexpected shape.`,
    );
  }
  return parsed.data;
}
