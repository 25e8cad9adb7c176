import type { DeviceCredentials, DeviceKind } from "@ringback/protocol";
import type { RelayConfig } from "../../src/relay-config.js";
import { type RelayServer, startRelayServer } from "../../src/server.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { RelayStore } from "../../src/store/store.js";
import { FakeClock } from "./fake-clock.js";
import {
  type ApiResponse,
  apiRequest,
  captureLog,
  pair,
  type RequestOptions,
  signUp,
} from "./in-process-relay.js";
import { type TempDir, tempDir } from "./temp-dir.js";
import { startTestPushService, type TestPushService } from "./test-push-service.js";

/**
 * A relay on 127.0.0.1 port 0 (temp-dir SQLite, fake clock, captured log) that trusts a test push service of its
 * own. The push timer is slowed to an hour: tests move the clock and call `relay.pushDue()` themselves.
 */
export interface PushRelay extends AsyncDisposable {
  readonly server: RelayServer;
  readonly url: string;
  readonly store: RelayStore;
  readonly clock: FakeClock;
  readonly logs: string[];
  readonly dataDir: string;
  readonly pushService: TestPushService;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  signUp(deviceKind?: DeviceKind): Promise<DeviceCredentials>;
  pair(token: string, deviceKind?: DeviceKind): Promise<DeviceCredentials>;
  /** Moves the clock and sends what fell due, waiting for the push service's answers. */
  advance(ms: number): Promise<void>;
}

const HOUR_MS = 60 * 60 * 1000;

export async function pushRelay(config: Partial<RelayConfig> = {}): Promise<PushRelay> {
  const dir: TempDir = await tempDir();
  const pushService = await startTestPushService();
  const store = openSqliteStore(dir.path);
  const clock = new FakeClock();
  const { log, logs } = captureLog();
  const server = await startRelayServer({
    host: "127.0.0.1",
    port: 0,
    store,
    clock,
    log,
    pushAgent: pushService.agent,
    config: { openSignup: true, sseRetryMs: 100, pushPollMs: HOUR_MS, pushHosts: ["127.0.0.1"], ...config },
  });
  const request = (method: string, path: string, options?: RequestOptions) =>
    apiRequest((input, init) => fetch(new URL(input, server.url), init), method, path, options);
  return {
    server,
    url: server.url,
    store,
    clock,
    logs,
    dataDir: dir.path,
    pushService,
    request,
    signUp: (deviceKind = "computer") => signUp(request, deviceKind),
    pair: (token, deviceKind = "phone") => pair(request, token, deviceKind),
    async advance(ms) {
      clock.advance(ms);
      await server.relay.pushDue();
    },
    async [Symbol.asyncDispose]() {
      await server.close();
      await pushService.close();
      await store.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}
