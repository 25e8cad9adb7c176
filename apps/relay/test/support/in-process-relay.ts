import type { DeviceCredentials, DeviceKind } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import type { RelayLog } from "../../src/log.js";
import { createRelay, type Relay } from "../../src/relay.js";
import type { RelayConfig } from "../../src/relay-config.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { RelayStore } from "../../src/store/store.js";
import { FakeClock } from "./fake-clock.js";

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of many response shapes.
  readonly body: any;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A relay app on a fresh SQLite store in a temp dir, a fake clock, and captured log lines; no sockets. */
export interface InProcessRelay extends AsyncDisposable {
  readonly relay: Relay;
  readonly store: RelayStore;
  readonly clock: FakeClock;
  readonly logs: string[];
  readonly dataDir: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** An account with one device (open signup, or the claim code when given). */
  signUp(deviceKind?: DeviceKind, claimCode?: string): Promise<DeviceCredentials>;
  /** Another device of the account of `token`, joined with a fresh pairing code. */
  pair(token: string, deviceKind?: DeviceKind): Promise<DeviceCredentials>;
}

export function captureLog(): { log: RelayLog; logs: string[] } {
  const logs: string[] = [];
  return { log: { line: (text) => logs.push(text) }, logs };
}

/** What a single relay of these tests runs on: a fresh SQLite store in a temp dir, a fake clock, a captured log. */
export interface RelayGround extends AsyncDisposable {
  readonly store: RelayStore;
  readonly clock: FakeClock;
  readonly log: RelayLog;
  readonly logs: string[];
  readonly dataDir: string;
}

export async function relayGround(): Promise<RelayGround> {
  const dir: TemporaryDirectory = await makeTemporaryDirectory();
  const store = openSqliteStore(dir.path);
  const { log, logs } = captureLog();
  return {
    store,
    clock: new FakeClock(),
    log,
    logs,
    dataDir: dir.path,
    async [Symbol.asyncDispose]() {
      await store.close();
      await dir.remove();
    },
  };
}

export async function inProcessRelay(config: Partial<RelayConfig> = {}): Promise<InProcessRelay> {
  const ground = await relayGround();
  const { store, clock, log } = ground;
  const relay = createRelay({ store, clock, config: { openSignup: true, ...config }, log });
  const request = (method: string, path: string, options: RequestOptions = {}) =>
    apiRequest((input, init) => relay.app.request(input, init), method, path, options);
  return {
    ...ground,
    relay,
    request,
    ...deviceSteps(request),
    async [Symbol.asyncDispose]() {
      relay.close();
      await ground[Symbol.asyncDispose]();
    },
  };
}

type Fetcher = (input: string, init: RequestInit) => Response | Promise<Response>;

/** Signing up and pairing through `request`, bound as every relay of these tests offers them. */
export function deviceSteps(request: Requester): Pick<InProcessRelay, "signUp" | "pair"> {
  return {
    signUp: (deviceKind = "computer", claimCode) => signUp(request, deviceKind, claimCode),
    pair: (token, deviceKind = "phone") => pair(request, token, deviceKind),
  };
}
type Requester = (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;

/** Requests to the relay listening at `url` (a server or a child process), over a real socket. */
export function requestAt(url: string): Requester {
  return (method, path, options) =>
    apiRequest((input, init) => fetch(new URL(input, url), init), method, path, options);
}

async function apiRequest(
  fetcher: Fetcher,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const response = await fetcher(path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON (a static file): keep the text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export async function signUp(
  request: Requester,
  deviceKind: DeviceKind = "computer",
  claimCode?: string,
): Promise<DeviceCredentials> {
  const response = await request("POST", "/v1/accounts", {
    body: { deviceName: `my ${deviceKind}`, deviceKind, ...(claimCode ? { claimCode } : {}) },
  });
  if (response.status !== 201)
    throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function pair(request: Requester, token: string, deviceKind: DeviceKind = "phone") {
  const code = await request("POST", "/v1/pairing-codes", { token });
  if (code.status !== 201) throw new Error(`pairing code failed: ${code.status}`);
  const joined = await request("POST", "/v1/pairing-codes/redeem", {
    body: { code: code.body.code, deviceName: `my ${deviceKind}`, deviceKind },
  });
  if (joined.status !== 201)
    throw new Error(`redeem failed: ${joined.status} ${JSON.stringify(joined.body)}`);
  return joined.body as DeviceCredentials;
}

/** A `POST /v1/daemon/events` body with a fake (unopened) sealed payload. */
export function eventBody(eventId: string, overrides: Record<string, unknown> = {}) {
  return {
    eventId,
    source: "claude-code",
    occurredAt: "2026-01-01T08:59:00.000Z",
    sealed: `e2e1.0123456789abcdef.aXY.${eventId}`,
    ...overrides,
  };
}
