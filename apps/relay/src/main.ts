// The `ringback-relay` bin. It checks the Node.js running it before loading the relay: the relay imports node:sqlite,
// which an older Node cannot even load, so the check must come first for a person to read a line instead of a trace.
import { nodeTooOldMessage, nodeWithoutSqliteMessage } from "./node-version.js";
import { readRelayPackage } from "./relay-package.js";

const relayPackage = readRelayPackage();
const check = {
  found: process.versions.node,
  engines: relayPackage.nodeEngines,
  script: process.argv[1] ?? "ringback-relay",
  args: process.argv.slice(2),
};
const tooOld = nodeTooOldMessage(check);
if (tooOld !== null) {
  process.stderr.write(`ringback-relay: ${tooOld}\n`);
  process.exit(1);
}
const relay = await import("./run-relay.js").catch((error: unknown) => {
  // A Node recent enough by number that keeps node:sqlite behind a flag (23.0 to 23.3).
  if ((error as { code?: unknown }).code !== "ERR_UNKNOWN_BUILTIN_MODULE") throw error;
  process.stderr.write(`ringback-relay: ${nodeWithoutSqliteMessage(check)}\n`);
  process.exit(1);
});
await relay.runRelay(relayPackage);
