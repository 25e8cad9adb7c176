import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@ringback/test-kit";
import postgres from "postgres";
import { startNginx } from "../test/support/nginx-server.ts";
import type { PostgresServer } from "../test/support/postgres-server.ts";
import type { Cleanup } from "./cleanup.ts";
import { type RelayProcess, startRelayProcess } from "./relay-process.ts";

/** Where the bench's clients and its "daemon" talk to: one relay, or nginx in front of several. */
export interface Deployment {
  readonly url: string;
  /** The relay process when there is exactly one (the memory figures read it). */
  readonly relay: RelayProcess | null;
  /** Every relay process of the deployment (their CPU time is the deployment's cost). */
  readonly relays: readonly RelayProcess[];
}

async function relayIn(cleanup: Cleanup, args: readonly string[] = []): Promise<RelayProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), "ringback-relay-bench-"));
  cleanup.add(() => rm(dataDir, { recursive: true, force: true }));
  const starting = startRelayProcess(dataDir, args);
  cleanup.addStarting(starting, (relay) => relay.stop());
  return starting;
}

/** One relay on SQLite in a temp dir (the default deployment). */
export async function sqliteDeployment(cleanup: Cleanup): Promise<Deployment> {
  const relay = await relayIn(cleanup);
  return { url: relay.url, relay, relays: [relay] };
}

/** A fresh schema on `server` (each deployment gets its own, so their accounts and seqs never meet). */
async function freshSchema(server: PostgresServer, name: string): Promise<string> {
  const sql = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE SCHEMA ${name}`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  return `${server.url}?search_path=${name}`;
}

/**
 * `count` relays on one PostgreSQL schema. One relay is reached directly; several sit behind nginx with the
 * README's config (round robin: streams and posts alternate between the instances).
 */
export async function postgresDeployment(
  cleanup: Cleanup,
  server: PostgresServer,
  count: number,
): Promise<Deployment> {
  const databaseUrl = await freshSchema(server, `bench_${count}_instances`);
  const relays: RelayProcess[] = [];
  for (let index = 0; index < count; index++) {
    relays.push(
      await relayIn(cleanup, ["--database", databaseUrl, ...(count > 1 ? ["--behind-proxy"] : [])]),
    );
  }
  const [first] = relays;
  if (!first) throw new Error("A deployment needs at least one relay.");
  if (count === 1) return { url: first.url, relay: first, relays };
  const starting = startNginx({
    listeners: [
      {
        name: "relay",
        port: await freePort(),
        upstream: relays.map((relay) => ({ port: Number(new URL(relay.url).port) })),
      },
    ],
    hasAccessLog: false,
  });
  cleanup.addStarting(starting, (nginx) => nginx.stop());
  const nginx = await starting;
  return { url: nginx.url("relay"), relay: null, relays };
}
