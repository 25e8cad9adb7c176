import { parseArgs } from "node:util";
import { formatChecks, runDoctor } from "../../runtime/doctor/run-doctor.js";

export const summary = "tell what stops a call from ringing, and the command that fixes it";
export const usage = `ringback doctor [--json]

Checks, one line each (ok / warn / fail, and the fix): the Stop and permission hooks in Claude Code and Codex (and
Codex's trust records for them), the daemon on its port, the relay and the daemon's link to it, the end-to-end key (and whether
the devices' last sealed message used the same one), the language model (the same structured call as a brief),
the tracker token and its realtime connection, the last report with where its call stands, and whether an
agent asking permission rings your phones (ringback away). Exit code 1 when
any check fails. Never prints a key or a token. The daemon's port is localPort in {data_dir}/daemon.json (default
8790), which \`ringback run --port\` saves, as the hooks read it; RINGBACK_PORT overrides it for this check.
  --json   an array of {id, status, summary, fix, details} instead`;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, strict: true, options: { json: { type: "boolean" } } });
  const checks = await runDoctor(process.env);
  process.stdout.write(values.json ? `${JSON.stringify(checks, null, 2)}\n` : formatChecks(checks));
  process.exitCode = checks.some((check) => check.status === "fail") ? 1 : 0;
}
