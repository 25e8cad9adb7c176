import { resolveDataDir } from "../files/data-dir.js";
import { checkDaemon } from "./daemon-check.js";
import type { DoctorCheck } from "./doctor-check.js";
import { checkEscalation } from "./escalation-check.js";
import { hookChecks } from "./hook-checks.js";
import { checkKey } from "./key-check.js";
import { checkLastReport } from "./last-report-check.js";
import { readDataDir } from "./local-daemon.js";
import { checkModel } from "./model-check.js";
import { checkPresence } from "./presence-check.js";
import { checkPush } from "./push-check.js";
import { checkRelay } from "./relay-check.js";
import { checkSecretFiles } from "./secret-files-check.js";
import { checkTracker } from "./tracker-check.js";

/** Every check, in the order a report travels: the hooks, the daemon, the relay and its push contact, the key, the model, the tracker, the last report; then whether permission asks ring, and whether the files holding secrets are the user's alone. */
export async function runDoctor(env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  const facts = await readDataDir(resolveDataDir(env), env);
  const config = typeof facts.config === "object" ? facts.config : null;
  const daemon = await checkDaemon(facts);
  const serverUrl =
    daemon.status?.relay.serverUrl ?? (env.RINGBACK_SERVER_URL?.trim() || config?.serverUrl || null);
  const isLoggedIn = Boolean(daemon.status?.relay.deviceId ?? config?.relay?.deviceToken);
  const [relay, push, key, model, tracker, lastReport, presence, escalation, secretFiles] = await Promise.all(
    [
      checkRelay(serverUrl, daemon.status, isLoggedIn),
      checkPush(serverUrl),
      checkKey(config, facts.lastSealedMessage),
      checkModel(daemon.daemon),
      checkTracker(daemon.daemon),
      checkLastReport(daemon.status, config),
      checkPresence(facts.dataDir, config),
      checkEscalation(config, env),
      checkSecretFiles(facts.dataDir),
    ],
  );
  return [
    ...hookChecks(env),
    daemon.check,
    relay,
    push,
    key,
    model,
    tracker,
    lastReport,
    presence,
    escalation,
    secretFiles,
  ];
}

/** One line per check: status, id, what is wrong, and the fix. */
export function formatChecks(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((check) => check.id.length));
  return checks
    .map((check) => {
      const fix = check.fix ? ` — fix: ${check.fix}` : "";
      return `${check.status.padEnd(4)}  ${check.id.padEnd(width)}  ${check.summary}${fix}`;
    })
    .join("\n")
    .concat("\n");
}
