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

/** Reports a background job's failure by the error's name only (a message could carry a secret). */
type FailureReporter = (job: string) => (error: unknown) => void;

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
  const reportFailure: FailureReporter = (job) => (error) => {
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
  const receive = clusterMessageReceiver({
    instanceId,
    leases,
    settings,
    reportFailure,
    handlers: () => handlers,
  });
  const subscription = await listenToCluster(pg, log, receive, () => handlers?.resync());
  const renewTimer = startRenewing(leases, settings, options.renewMs ?? LINK_LEASE_RENEW_MS, reportFailure);

  return {
    instanceId,
    setHandlers(next) {
      handlers = next;
    },
    holdLink: (deviceId, onReplaced): LinkLease => leases.hold(deviceId, onReplaced),
    linksHeldElsewhere: (deviceIds) => leases.heldElsewhere(deviceIds),
    announceReply: (deviceId, replyId) => notify(pg.sql, pg.channel, { t: "reply", d: deviceId, r: replyId }),
    announceFleet: (accountId, computerId) =>
      notify(pg.sql, pg.channel, { t: "fleet", a: accountId, d: computerId, i: instanceId }),
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

/** Hands each announcement to the handlers, the link leases or the settings exchange it is for. */
function clusterMessageReceiver(parts: {
  readonly instanceId: string;
  readonly leases: LinkLeases;
  readonly settings: SettingsExchange;
  readonly reportFailure: FailureReporter;
  readonly handlers: () => ClusterHandlers | null;
}): (message: ClusterMessage) => void {
  const { instanceId, leases, settings, reportFailure, handlers } = parts;
  return (message) => {
    switch (message.t) {
      case "entries":
        handlers()?.entriesCommitted(message.a, message.s);
        return;
      case "device-removed":
        handlers()?.deviceRemoved(message.d);
        return;
      case "link-opened":
        leases.linkOpened(message.d, message.g);
        return;
      case "reply":
        handlers()?.replyQueued(message.d, message.r);
        return;
      case "settings-request":
        if (message.i !== instanceId) return;
        settings.readRequest(message.d, message.r).then((sealed) => {
          const stamp = message.s === undefined ? {} : { senderDeviceId: message.s };
          if (sealed !== null) handlers()?.settingsRequested(message.d, message.r, sealed, stamp);
        }, reportFailure("reading a relayed settings request"));
        return;
      case "fleet":
        // This instance's own streams had it when it was stored.
        if (message.i !== instanceId) handlers()?.fleetChanged(message.a, message.d);
        return;
      case "settings-answer":
        if (message.i !== instanceId) return;
        settings.answered(message.d, message.r).catch(reportFailure("reading a settings answer"));
        return;
    }
  };
}

/** LISTENs on the schema's channel; `resync` runs after each reconnect (what was announced meanwhile is lost). */
function listenToCluster(
  pg: PostgresDatabase,
  log: RelayLog,
  receive: (message: ClusterMessage) => void,
  resync: () => void,
): ReturnType<PostgresDatabase["sql"]["listen"]> {
  let hasListened = false;
  return pg.sql.listen(
    pg.channel,
    (payload) => {
      const message = decodeClusterMessage(payload);
      if (message) receive(message);
      else log.line("cluster message ignored (unknown)");
    },
    () => {
      // Called again after every reconnect of the LISTEN connection, not only the first time.
      if (hasListened) resync();
      hasListened = true;
    },
  );
}

/** Renews this instance's link leases and prunes orphaned settings requests every `renewMs`. */
function startRenewing(
  leases: LinkLeases,
  settings: SettingsExchange,
  renewMs: number,
  reportFailure: FailureReporter,
): NodeJS.Timeout {
  const renewTimer = setInterval(() => {
    leases.renew().catch(reportFailure("renewing link leases"));
    settings.pruneOrphans().catch(reportFailure("pruning settings requests"));
  }, renewMs);
  renewTimer.unref();
  return renewTimer;
}
