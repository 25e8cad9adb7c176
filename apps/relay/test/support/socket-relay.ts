import type { DeviceCredentials, DeviceKind } from "@ringback/protocol";
import type { RelayConfig } from "../../src/relay-config.js";
import {
  type RelayServer,
  type RelayServerOptions,
  type SlowClientLimits,
  startRelayServer,
} from "../../src/server.js";
import type { RelayStore } from "../../src/store/store.js";
import type { FakeClock } from "./fake-clock.js";
import {
  type ApiResponse,
  deviceSteps,
  type RequestOptions,
  relayGround,
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
 * The server's own options a test may set: bounds on slow clients, the agent push requests go out through, how
 * push services' names resolve (to loopback addresses the test controls), and the disk's free space.
 */
interface SocketRelayServerOptions {
  readonly slowClientLimits?: SlowClientLimits;
  readonly pushAgent?: RelayServerOptions["pushAgent"];
  readonly pushResolveAll?: RelayServerOptions["pushResolveAll"];
  readonly diskFreeBytes?: RelayServerOptions["diskFreeBytes"];
}

export async function socketRelay(
  config: Partial<RelayConfig> = {},
  serverOptions: SocketRelayServerOptions = {},
): Promise<SocketRelay> {
  const ground = await relayGround();
  const { store, clock, log } = ground;
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
    ...ground,
    server,
    url: server.url,
    request,
    ...deviceSteps(request),
    async [Symbol.asyncDispose]() {
      await server.close();
      await ground[Symbol.asyncDispose]();
    },
  };
}
