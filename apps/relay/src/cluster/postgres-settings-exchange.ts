import { isErrorCode, RingbackError } from "@ringback/protocol";
import {
  isUniqueViolation,
  notify,
  type PostgresDatabase,
  text,
  textOrNull,
} from "../store/postgres-database.js";
import type { LinkLeases } from "./postgres-link-leases.js";
import type { SenderStamp, SettingsAnswer } from "./relay-cluster.js";
import { inFlightError, SettingsWaiters } from "./settings-waiters.js";

/** A request row left behind by an instance that stopped while waiting is removed after this. */
const ORPHANED_REQUEST_MINUTES = 10;

/**
 * Settings requests relayed between instances through `settings_requests` rows: the instance the request
 * reached writes the row and notifies the link's holder; the holder forwards it over the link and writes the
 * answer into the row; the requester reads it. Notifications carry ids only: a sealed request can be 4 MiB.
 */
export class SettingsExchange {
  readonly #pg: PostgresDatabase;
  readonly #instanceId: string;
  readonly #leases: LinkLeases;
  readonly #waiters = new SettingsWaiters();

  constructor(pg: PostgresDatabase, instanceId: string, leases: LinkLeases) {
    this.#pg = pg;
    this.#instanceId = instanceId;
    this.#leases = leases;
  }

  async relay(
    deviceId: string,
    requestId: string,
    sealed: string,
    timeoutMs: number,
    stamp: SenderStamp,
  ): Promise<string> {
    const holder = await this.#leases.holderOf(deviceId);
    // Held "here" with no local link means it is closing right now: offline as well.
    if (holder === null || holder === this.#instanceId) throw new RingbackError("computer_offline");
    if (this.#waiters.has(deviceId, requestId)) throw inFlightError();
    const { sql } = this.#pg;
    try {
      await sql`INSERT INTO settings_requests (device_id, request_id, requester_id, sealed_request)
        VALUES (${deviceId}, ${requestId}, ${this.#instanceId}, ${sealed})`;
    } catch (error) {
      // The primary key: the same request id is in flight through another instance.
      if (isUniqueViolation(error)) throw inFlightError();
      throw error;
    }
    try {
      const answered = this.#waiters.wait(deviceId, requestId, timeoutMs);
      // Settled in `finally` below when the notify itself fails; that rejection is not news to anyone.
      answered.catch(() => {});
      await notify(sql, this.#pg.channel, {
        t: "settings-request",
        i: holder,
        d: deviceId,
        r: requestId,
        ...(stamp.senderDeviceId === undefined ? {} : { s: stamp.senderDeviceId }),
      });
      return await answered;
    } finally {
      this.#waiters.reject(deviceId, requestId, new RingbackError("computer_offline"));
      await sql`DELETE FROM settings_requests WHERE device_id = ${deviceId} AND request_id = ${requestId}`;
    }
  }

  /** The sealed request another instance put in its row for this instance's link; null once it is gone. */
  async readRequest(deviceId: string, requestId: string): Promise<string | null> {
    const [row] = await this.#pg.sql`SELECT sealed_request FROM settings_requests
      WHERE device_id = ${deviceId} AND request_id = ${requestId} AND NOT is_answered`;
    return row ? textOrNull(row.sealed_request) : null;
  }

  async answer(deviceId: string, requestId: string, answer: SettingsAnswer): Promise<void> {
    const { sql } = this.#pg;
    const sealed = "sealed" in answer ? answer.sealed : null;
    const error = "error" in answer ? answer.error : null;
    const [row] = await sql`UPDATE settings_requests SET is_answered = true, sealed_request = NULL,
        sealed_result = ${sealed}, error_code = ${error?.code ?? null}, error_message = ${error?.message ?? null}
      WHERE device_id = ${deviceId} AND request_id = ${requestId} AND NOT is_answered
      RETURNING requester_id`;
    // No row: the requester gave up (timed out) and removed it.
    if (!row) return;
    await notify(sql, this.#pg.channel, {
      t: "settings-answer",
      i: text(row.requester_id),
      d: deviceId,
      r: requestId,
    });
  }

  /** The holder answered a request of this instance: read the answer from the row. */
  async answered(deviceId: string, requestId: string): Promise<void> {
    if (!this.#waiters.has(deviceId, requestId)) return;
    const [row] = await this.#pg.sql`SELECT sealed_result, error_code, error_message FROM settings_requests
      WHERE device_id = ${deviceId} AND request_id = ${requestId} AND is_answered`;
    if (!row) return;
    const sealed = textOrNull(row.sealed_result);
    if (sealed !== null) {
      this.#waiters.resolve(deviceId, requestId, sealed);
      return;
    }
    const code = textOrNull(row.error_code) ?? "";
    const error = isErrorCode(code)
      ? new RingbackError(code, textOrNull(row.error_message) ?? undefined)
      : new RingbackError("internal_error");
    this.#waiters.reject(deviceId, requestId, error);
  }

  async pruneOrphans(): Promise<void> {
    await this.#pg.sql`DELETE FROM settings_requests
      WHERE created_at < now() - ${ORPHANED_REQUEST_MINUTES} * interval '1 minute'`;
  }

  /** Shutdown: every request waiting here fails 503. */
  closeAll(): void {
    this.#waiters.rejectOffline(null);
  }
}
