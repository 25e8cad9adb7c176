import type { DeviceCredentials, DeviceKind } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import type { RelayConfig } from "../../src/relay-config.js";
import {
  type RelayServer,
  type RelayServerOptions,
  type SlowClientLimits,
  startRelayServer,
} from "../../src/server.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { RelayStore } from "../../src/store/store.js";
import { FakeClock } from "./fake-clock.js";
import {
  type ApiResponse,
  captureLog,
  deviceSteps,
  type RequestOptions,
  requestAt,
} from "./in-process-relay.js";

/** The relay listening on 127.0.0.1 port 0 in this process, on a temp-dir store, with a fake clock. */
export interface SocketRelay extends AsyncDisposable {
  readonly server: RelayServer;
  readonly url: string;
  readonly store: RelayStore;
  readonly clock: FakeClock;
  readonly logs: string[];
  readonly dataDir: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  signUp(deviceKind?: DeviceKind): Promise<DeviceCredentials>;
  pair(token: string, deviceKind?: DeviceKind): Promise<DeviceCredentials>;
}

/**
 * The server's own options a test may set: bounds on slow clients, the agent push requests go out through, and how
 * push services' names resolve (to loopback addresses the test controls).
 */
interface SocketRelayServerOptions {
  readonly slowClientLimits?: SlowClientLimits;
  readonly pushAgent?: RelayServerOptions["pushAgent"];
  readonly pushResolveAll?: RelayServerOptions["pushResolveAll"];
}

export async function socketRelay(
  config: Partial<RelayConfig> = {},
  serverOptions: SocketRelayServerOptions = {},
): Promise<SocketRelay> {
  const dir: TemporaryDirectory = await makeTemporaryDirectory();
  const store = openSqliteStore(dir.path);
  const clock = new FakeClock();
  const { log, logs } = captureLog();
  const server = await startRelayServer({
    host: "127.0.0.1",
    port: 0,
    store,
    clock,
    log,
    config: { openSignup: true, sseRetryMs: 100, ...config },
    ...serverOptions,
  });
  const request = requestAt(server.url);
  return {
    server,
    url: server.url,
    store,
    clock,
    logs,
    dataDir: dir.path,
    request,
    ...deviceSteps(request),
    async [Symbol.asyncDispose]() {
      await server.close();
      await store.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}
