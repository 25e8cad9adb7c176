import type { DeviceCredentials, DeviceKind } from "@ringback/protocol";
import { openRelayBackend, type RelayBackend } from "../../src/relay-backend.js";
import type { RelayConfig } from "../../src/relay-config.js";
import { type RelayServer, type RelayServerOptions, startRelayServer } from "../../src/server.js";
import { FakeClock } from "./fake-clock.js";
import {
  type ApiResponse,
  captureLog,
  deviceSteps,
  type RequestOptions,
  requestAt,
} from "./in-process-relay.js";
import { type PostgresSchema, postgresSchema } from "./postgres-schema.js";

/** One relay instance listening on 127.0.0.1 port 0, on the shared schema. */
interface RelayInstance {
  readonly server: RelayServer;
  readonly backend: RelayBackend;
  readonly url: string;
  readonly logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
}

/** Several relay instances in this process, each with its own pool and LISTEN connection, on one fresh schema. */
export interface PostgresRelays extends AsyncDisposable {
  readonly instances: RelayInstance[];
  readonly schema: PostgresSchema;
  readonly clock: FakeClock;
  signUp(deviceKind?: DeviceKind): Promise<DeviceCredentials>;
  pair(token: string, deviceKind?: DeviceKind): Promise<DeviceCredentials>;
}

export async function startPostgresRelays(
  count: number,
  config: Partial<RelayConfig> = {},
  options: { databaseUrl?: string; pushAgent?: RelayServerOptions["pushAgent"] } = {},
): Promise<PostgresRelays> {
  // A database of the test's own (one it restarts, say) or a fresh schema in the shared test server.
  const schema: PostgresSchema = options.databaseUrl
    ? {
        name: "public",
        url: options.databaseUrl,
        drop: async () => {},
        [Symbol.asyncDispose]: async () => {},
      }
    : await postgresSchema();
  const clock = new FakeClock();
  const instances: RelayInstance[] = [];
  try {
    for (let index = 0; index < count; index++) {
      const { log, logs } = captureLog();
      const backend = await openRelayBackend({ databaseUrl: schema.url, dataDir: "", log });
      const server = await startRelayServer({
        host: "127.0.0.1",
        port: 0,
        store: backend.store,
        cluster: backend.cluster,
        clock,
        log,
        pushAgent: options.pushAgent,
        config: { openSignup: true, sseRetryMs: 100, ...config },
      });
      const request = requestAt(server.url);
      instances.push({ server, backend, url: server.url, logs, request });
    }
  } catch (error) {
    await closeAll(instances, schema);
    throw error;
  }
  const first = instances[0];
  if (!first) throw new Error("At least one relay instance is needed.");
  return {
    instances,
    schema,
    clock,
    ...deviceSteps(first.request),
    [Symbol.asyncDispose]: () => closeAll(instances, schema),
  };
}

async function closeAll(instances: readonly RelayInstance[], schema: PostgresSchema): Promise<void> {
  for (const instance of instances) {
    await instance.server.close();
    await instance.backend.close();
  }
  await schema.drop();
}
