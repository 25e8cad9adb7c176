import { startPostgresCluster } from "./cluster/postgres-cluster.js";
import { type RelayCluster, singleInstanceCluster } from "./cluster/relay-cluster.js";
import type { RelayLog } from "./log.js";
import { openPostgresStore } from "./store/postgres-store.js";
import { openSqliteStore } from "./store/sqlite-store.js";
import type { RelayStore } from "./store/store.js";

/** Where the relay keeps its data and how it reaches the other instances sharing it. */
export interface RelayBackend {
  readonly store: RelayStore;
  readonly cluster: RelayCluster;
  /** Stops the cluster (releasing this instance's link leases), then closes the store. */
  close(): Promise<void>;
}

/**
 * SQLite in `dataDir` when no database URL is given (one relay process, nothing to set up); otherwise the
 * PostgreSQL database at `databaseUrl`, migrated, with this instance listening for the others.
 */
export async function openRelayBackend(options: {
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly log: RelayLog;
}): Promise<RelayBackend> {
  if (options.databaseUrl === null) {
    const store = openSqliteStore(options.dataDir);
    const cluster = singleInstanceCluster();
    return { store, cluster, close: () => store.close() };
  }
  const store = await openPostgresStore(options.databaseUrl);
  let cluster: RelayCluster;
  try {
    cluster = await startPostgresCluster(store.database, { log: options.log });
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    store,
    cluster,
    async close() {
      try {
        await cluster.close();
      } finally {
        await store.close();
      }
    },
  };
}
