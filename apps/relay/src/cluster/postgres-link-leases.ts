import { notify, type PostgresDatabase, text } from "../store/postgres-database.js";
import type { LinkLease } from "./relay-cluster.js";

/** A lease lasts this long unless renewed: an instance killed outright stops holding its links after it. */
export const LINK_LEASE_MS = 15_000;
/** Leases are renewed this often (a third of their life, so one late renewal does not drop a live link). */
export const LINK_LEASE_RENEW_MS = 5_000;

interface HeldLease {
  readonly deviceId: string;
  readonly onReplaced: () => void;
  /** From the database sequence: a newer link of the same device always has a higher one. */
  generation: number | null;
  claimed: Promise<void>;
  /** The newest generation another instance announced while this claim was still in flight. */
  newestAnnounced: number;
  isReplaced: boolean;
}

/**
 * Which instance holds each daemon link: one row per device in `daemon_links`, with the instance, a generation
 * and an expiry renewed while the link is open. Settings requests go to the holder; a newer link elsewhere
 * closes this one.
 */
export class LinkLeases {
  readonly #pg: PostgresDatabase;
  readonly #instanceId: string;
  readonly #leaseMs: number;
  readonly #held = new Set<HeldLease>();
  readonly #onError: (error: unknown) => void;

  constructor(pg: PostgresDatabase, instanceId: string, leaseMs: number, onError: (error: unknown) => void) {
    this.#pg = pg;
    this.#instanceId = instanceId;
    this.#leaseMs = leaseMs;
    this.#onError = onError;
  }

  hold(deviceId: string, onReplaced: () => void): LinkLease {
    const lease: HeldLease = {
      deviceId,
      onReplaced,
      generation: null,
      claimed: Promise.resolve(),
      newestAnnounced: 0,
      isReplaced: false,
    };
    this.#held.add(lease);
    lease.claimed = this.#claim(lease).catch(this.#onError);
    return {
      release: async () => {
        this.#held.delete(lease);
        await lease.claimed;
        if (lease.generation === null) return;
        await this.#pg.sql`DELETE FROM daemon_links
          WHERE device_id = ${deviceId} AND generation = ${lease.generation}`;
      },
    };
  }

  /** Another instance announced a link of `deviceId` with generation `generation`. */
  linkOpened(deviceId: string, generation: number): void {
    for (const lease of this.#held) {
      if (lease.deviceId !== deviceId) continue;
      if (lease.generation === null) lease.newestAnnounced = Math.max(lease.newestAnnounced, generation);
      else if (lease.generation < generation) this.#replace(lease);
    }
  }

  /** The live instance holding the device's link, or null. */
  async holderOf(deviceId: string): Promise<string | null> {
    const [row] = await this.#pg.sql`SELECT instance_id FROM daemon_links
      WHERE device_id = ${deviceId} AND expires_at > now()`;
    return row ? text(row.instance_id) : null;
  }

  async heldElsewhere(deviceIds: readonly string[]): Promise<Set<string>> {
    if (deviceIds.length === 0) return new Set();
    const { sql } = this.#pg;
    const rows = await sql`SELECT device_id FROM daemon_links
      WHERE device_id IN ${sql(deviceIds)} AND instance_id <> ${this.#instanceId} AND expires_at > now()`;
    return new Set(rows.map((row) => text(row.device_id)));
  }

  /** Extends every lease of this instance; also forgets expired leases of instances that stopped. */
  async renew(): Promise<void> {
    const { sql } = this.#pg;
    await sql`UPDATE daemon_links SET expires_at = now() + ${this.#leaseMs} * interval '1 millisecond'
      WHERE instance_id = ${this.#instanceId}`;
    await sql`DELETE FROM daemon_links WHERE expires_at <= now()`;
  }

  /** Drops every lease of this instance (at shutdown: its links are closing). */
  async releaseAll(): Promise<void> {
    this.#held.clear();
    await this.#pg.sql`DELETE FROM daemon_links WHERE instance_id = ${this.#instanceId}`;
  }

  async #claim(lease: HeldLease): Promise<void> {
    const { sql } = this.#pg;
    // The sequence orders links across instances; an older claim arriving late does not overwrite a newer one.
    const [row] = await sql`INSERT INTO daemon_links AS l (device_id, instance_id, generation, expires_at)
      VALUES (${lease.deviceId}, ${this.#instanceId}, nextval('daemon_link_generations'),
        now() + ${this.#leaseMs} * interval '1 millisecond')
      ON CONFLICT (device_id) DO UPDATE SET instance_id = EXCLUDED.instance_id,
        generation = EXCLUDED.generation, expires_at = EXCLUDED.expires_at
      WHERE l.generation < EXCLUDED.generation
      RETURNING generation`;
    if (!row) {
      this.#replace(lease);
      return;
    }
    lease.generation = Number(row.generation);
    if (lease.newestAnnounced > lease.generation) {
      this.#replace(lease);
      return;
    }
    await notify(sql, this.#pg.channel, { t: "link-opened", d: lease.deviceId, g: lease.generation });
  }

  #replace(lease: HeldLease): void {
    if (lease.isReplaced) return;
    lease.isReplaced = true;
    lease.onReplaced();
  }
}
