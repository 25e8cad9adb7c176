import { LocalStatus } from "@ringback/protocol";
import { type DoctorCheck, fail, ok } from "./doctor-check.js";
import { type DataDirFacts, LocalDaemon } from "./local-daemon.js";

export interface DaemonFindings {
  readonly check: DoctorCheck;
  /** The running daemon of this data dir, when it answered. */
  readonly daemon: LocalDaemon | null;
  readonly status: LocalStatus | null;
}

/** The daemon of this data dir answers on its port with this data dir's local key. */
export async function checkDaemon(facts: DataDirFacts): Promise<DaemonFindings> {
  const none = (check: DoctorCheck): DaemonFindings => ({ check, daemon: null, status: null });
  if (typeof facts.config === "string")
    return none(fail("daemon", facts.config, "fix daemon.json (it is never reset), then: ringback run"));
  if (!facts.localKey)
    return none(
      fail("daemon", `${facts.dataDir} has no local key: the daemon has never run here`, "ringback run", {
        dataDir: facts.dataDir,
      }),
    );
  const daemon = new LocalDaemon(facts.port, facts.localKey);
  const answer = await daemon.call("GET", "/local/status");
  const details = { dataDir: facts.dataDir, port: facts.port };
  if (answer === null)
    return none(
      fail(
        "daemon",
        `no daemon answers on 127.0.0.1:${facts.port}`,
        "ringback run (or ringback install for a user service)",
        details,
      ),
    );
  if (answer.status === 401)
    return none(
      fail(
        "daemon",
        `port ${facts.port} answers with another data dir's key: another daemon has it`,
        `stop that daemon, or move this one: ringback run --port <another> (saved in daemon.json, where the hooks find it)`,
        details,
      ),
    );
  if (!answer.isProven)
    return none(
      fail(
        "daemon",
        `port ${facts.port} answers, but not as this data dir's daemon: another program holds it (it was sent no key)`,
        `find it (ss -ltnp 'sport = :${facts.port}') and stop it, or move this daemon: ringback run --port <another> (saved in daemon.json, where the hooks find it)`,
        details,
      ),
    );
  const status = LocalStatus.safeParse(answer.body);
  if (answer.status !== 200 || !status.success)
    return none(
      fail(
        "daemon",
        `the daemon on port ${facts.port} is an older version (GET /local/status answered ${answer.status})`,
        "stop it, then: ringback run",
        details,
      ),
    );
  return {
    check: ok("daemon", `running on 127.0.0.1:${status.data.port}`, details),
    daemon,
    status: status.data,
  };
}
