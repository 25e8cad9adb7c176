import { bundledWebApp } from "./bundled-web-app.js";
import { parseRelayCliOptions, RelayUsageError, USAGE } from "./cli-options.js";
import { stderrLog } from "./log.js";
import { openRelayBackend } from "./relay-backend.js";
import { DEFAULT_RELAY_CONFIG } from "./relay-config.js";
import type { RelayPackage } from "./relay-package.js";
import { prepareClaimCode } from "./runtime/claim-code.js";
import { freeBytesOf } from "./runtime/disk-space.js";
import { pushStartWarnings } from "./runtime/push-start-check.js";
import { RelayListenError, startRelayServer } from "./server.js";

async function main(relayPackage: RelayPackage): Promise<void> {
  const options = parseRelayCliOptions(process.argv.slice(2), process.env);
  if (options.isHelp) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.isVersion) {
    process.stdout.write(`${relayPackage.version}\n`);
    return;
  }
  const backend = await openRelayBackend({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    log: stderrLog,
  });
  const { store, cluster } = backend;
  const webRoot = options.isWebless ? null : (options.config.webRoot ?? bundledWebApp());
  const config = { ...options.config, webRoot };
  const claimCode = await prepareClaimCode(store, { ...DEFAULT_RELAY_CONFIG, ...config });
  const server = await startRelayServer({
    host: options.host,
    port: options.port,
    store,
    cluster,
    config,
    tls: options.tls,
    log: stderrLog,
    // SQLite's disk is this machine's: watched, so writes stop before it fills.
    ...(options.databaseUrl === null ? { diskFreeBytes: freeBytesOf(options.dataDir) } : {}),
  });
  await server.relay.runtime.disk.refresh();
  // The VAPID key pair is drawn on the first start (RFC 8292): browsers subscribe against its public key.
  await server.relay.runtime.pushKeys.get();
  for (const warning of pushStartWarnings(server.relay.runtime.config)) stderrLog.line(warning);
  // The database URL may hold a password: only the kind of store is logged.
  stderrLog.line(
    options.databaseUrl === null
      ? `data in ${options.dataDir}`
      : `data in PostgreSQL (schema version ${await store.migrationVersion()})`,
  );
  const publicUrl = options.config.publicUrl ?? null;
  if (options.tls) stderrLog.line(`TLS with ${options.tls.certPath}`);
  stderrLog.line(webRoot ? `web app from ${webRoot}` : "no web app (the API only)");
  if (claimCode) {
    // The only time the claim code is ever written anywhere: only its hash is stored.
    stderrLog.line(
      `claim code ${claimCode} (needed once, to create the first account on this relay${publicUrl ? ` at ${publicUrl}` : ""})`,
    );
  }
  let isStopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (isStopping) return;
    isStopping = true;
    stderrLog.line(`${signal}: shutting down`);
    // Stop accepting, tell streams to reconnect (elsewhere), close links, wait for requests in flight, then
    // release this instance's link leases and close the database.
    server
      .close()
      .then(() => backend.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  // The signals are ours before the listening line: a tool that stops the relay as soon as it reads that line must
  // find the handler in place, or the signal's default action ends the process without closing anything.
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // The public address first: the listening line is what tools wait for, and everything is said by then.
  if (publicUrl) process.stdout.write(`ringback relay public address ${publicUrl}\n`);
  process.stdout.write(`ringback relay listening on ${server.url}\n`);
}

/** The relay's command line, once `main.ts` has checked that this Node.js can run it: exits on every error. */
export function runRelay(relayPackage: RelayPackage): Promise<void> {
  return main(relayPackage).catch(exitOn);
}

function exitOn(error: unknown): never {
  if (error instanceof RelayListenError) {
    process.stderr.write(`ringback-relay: ${error.message}\n`);
    process.exit(1);
  }
  if (error instanceof RelayUsageError || (error instanceof TypeError && "code" in error)) {
    process.stderr.write(`ringback-relay: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`ringback-relay: could not start: ${reason}\n`);
  process.exit(1);
}
