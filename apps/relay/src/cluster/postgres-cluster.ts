import { randomBytes } from "node:crypto";
import type { RelayLog } from "../log.js";
import { type ClusterMessage, decodeClusterMessage } from "../store/cluster-messages.js";
import { notify, type PostgresDatabase } from "../store/postgres-database.js";
import { LINK_LEASE_MS, LINK_LEASE_RENEW_MS, LinkLeases } from "./postgres-link-leases.js";
import { SettingsExchange } from "./postgres-settings-exchange.js";
import type { ClusterHandlers, LinkLease, RelayCluster, SettingsAnswer } from "./relay-cluster.js";

export interface PostgresClusterOptions {
  readonly log: RelayLog;
  readonly leaseMs?: number;
  readonly renewMs?: number;
}

/**
 * Relay instances on one PostgreSQL database: LISTEN on the schema's channel for what the others (and this
 * instance's own transactions) announce, link leases in `daemon_links`, settings requests in
 * `settings_requests`. Resolves once listening, so nothing announced after it is missed.
 */
export async function startPostgresCluster(
  pg: PostgresDatabase,
  options: PostgresClusterOptions,
): Promise<RelayCluster & { readonly instanceId: string }> {
  const instanceId = `inst_${randomBytes(8).toString("base64url")}`;
  const { log } = options;
  const reportFailure = (job: string) => (error: unknown) => {
    log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  };
  const leases = new LinkLeases(
    pg,
    instanceId,
    options.leaseMs ?? LINK_LEASE_MS,
    reportFailure("link lease"),
  );
  const settings = new SettingsExchange(pg, instanceId, leases);
  let handlers: ClusterHandlers | null = null;
  let hasListened = false;

  const receive = (message: ClusterMessage): void => {
    switch (message.t) {
      case "entries":
        handlers?.entriesCommitted(message.a, message.s);
        return;
      case "device-removed":
        handlers?.deviceRemoved(message.d);
        return;
      case "link-opened":
        leases.linkOpened(message.d, message.g);
        return;
      case "reply":
        handlers?.replyQueued(message.d, message.r);
        return;
      case "settings-request":
        if (message.i !== instanceId) return;
        settings.readRequest(message.d, message.r).then((sealed) => {
          const stamp = message.s === undefined ? {} : { senderDeviceId: message.s };
          if (sealed !== null) handlers?.settingsRequested(message.d, message.r, sealed, stamp);
        }, reportFailure("reading a relayed settings request"));
        return;
      case "settings-answer":
        if (message.i !== instanceId) return;
        settings.answered(message.d, message.r).catch(reportFailure("reading a settings answer"));
        return;
    }
  };

  const subscription = await pg.sql.listen(
    pg.channel,
    (payload) => {
      const message = decodeClusterMessage(payload);
      if (message) receive(message);
      else log.line("cluster message ignored (unknown)");
    },
    () => {
      // Called again after every reconnect of the LISTEN connection: what was announced meanwhile is lost.
      if (hasListened) handlers?.resync();
      hasListened = true;
    },
  );
  const renewTimer = setInterval(() => {
    leases.renew().catch(reportFailure("renewing link leases"));
    settings.pruneOrphans().catch(reportFailure("pruning settings requests"));
  }, options.renewMs ?? LINK_LEASE_RENEW_MS);
  renewTimer.unref();

  return {
    instanceId,
    setHandlers(next) {
      handlers = next;
    },
    holdLink: (deviceId, onReplaced): LinkLease => leases.hold(deviceId, onReplaced),
    linksHeldElsewhere: (deviceIds) => leases.heldElsewhere(deviceIds),
    announceReply: (deviceId, replyId) => notify(pg.sql, pg.channel, { t: "reply", d: deviceId, r: replyId }),
    relaySettings: (deviceId, requestId, sealed, timeoutMs, stamp) =>
      settings.relay(deviceId, requestId, sealed, timeoutMs, stamp),
    answerSettings: (deviceId, requestId, answer: SettingsAnswer) =>
      settings.answer(deviceId, requestId, answer),
    async close() {
      clearInterval(renewTimer);
      handlers = null;
      settings.closeAll();
      await subscription.unlisten();
      await leases.releaseAll();
    },
  };
}
