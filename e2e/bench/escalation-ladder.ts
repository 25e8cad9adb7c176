/**
 * The escalation ladder (issue #36): the time from a "needs you" call's start to each rung, against the schedule.
 * The real relay, the real daemon logged in to it and away, the real hook with Claude Code's captured
 * PermissionRequest payload; the four channels are the stand-ins the tests use (ntfy, Pushover, Telegram, Twilio on
 * one loopback port, the daemon pointed at them by RINGBACK_*_API_URL). Schedule: the first rung 10 s after the call,
 * then one every 10 s (the shortest the settings allow), so a run takes about a minute. Nobody answers: the ladder
 * climbs to its last rung, then the hook is hung up. No phone has a push subscription here, so the relay refuses the
 * push again (404): its time is still when the relay answered it. Each time is the daemon's own, from the call's start
 * to the service's answer (its log line). Printed, not asserted (also BENCHMARKS.md).
 *
 *   pnpm --filter @ringback/e2e exec node bench/escalation-ladder.ts   (after pnpm build)
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eventually, makeTemporaryDirectory, startFakeEscalationChannels } from "@ringback/test-kit";
import { BenchReport } from "../../scripts/bench-report.mjs";
import { runRingback, startDaemon } from "../harness/daemon-process.ts";
import { genuinePermissionPayload } from "../harness/hook-process.ts";
import { HOOK_BIN, requireBuilt } from "../harness/paths.ts";
import { startRelay } from "../harness/relay-process.ts";
import { startTimedChild } from "./needs-you/timed-child.ts";

const AFTER_SECONDS = 10;
const STEP_SECONDS = 10;
const RUNGS = ["push", "ntfy", "pushover", "telegram", "twilio"] as const;
/** Past the last rung's time, how long the bench waits for it before giving up. */
const GRACE_MS = 10_000;
const ACCOUNTS = {
  ntfyToken: "tk_benchntfy",
  pushover: { appToken: "benchapptoken000000000000000000", userKey: "benchuserkey00000000000000000" },
  telegram: { botToken: "9:benchbot", chatId: "42" },
  twilio: { accountSid: `AC${"d".repeat(32)}`, authToken: "benchtwilio" },
};

const hookBin = requireBuilt(HOOK_BIN, "@ringback/hook");
await using directory = await makeTemporaryDirectory("ringback-escalation-bench-");
const home = join(directory.path, "home");
const project = join(directory.path, "shop-api");
await mkdir(project);
await using channels = await startFakeEscalationChannels(ACCOUNTS);
await using relay = await startRelay({ dataDir: join(directory.path, "relay"), webRoot: null });
await runRingback(home, ["login", "--server", relay.url, "--name", "bench laptop"]);
const configPath = join(home, "daemon.json");
const config = JSON.parse(await readFile(configPath, "utf8")) as Record<string, unknown>;
config.escalation = {
  channels: [
    { kind: "ntfy", serverUrl: channels.origin, topic: "ringback-bench", token: ACCOUNTS.ntfyToken },
    { kind: "pushover", ...ACCOUNTS.pushover },
    { kind: "telegram", ...ACCOUNTS.telegram },
    { kind: "twilio", ...ACCOUNTS.twilio, from: "+15005550006", to: "+15551234567" },
  ],
  schedule: { needsYou: { afterSeconds: AFTER_SECONDS, stepSeconds: STEP_SECONDS } },
};
await writeFile(configPath, JSON.stringify(config, null, 2), { mode: 0o600 });
const vendors = {
  RINGBACK_PUSHOVER_API_URL: channels.origin,
  RINGBACK_TELEGRAM_API_URL: channels.origin,
  RINGBACK_TWILIO_API_URL: channels.origin,
};
await using daemon = await startDaemon({ home, env: vendors });
await runRingback(home, ["away", "on"]);

const payload = genuinePermissionPayload("touch escalated.txt", {
  cwd: project,
  transcriptPath: join(directory.path, "transcript.jsonl"),
});
const hook = startTimedChild(
  [hookBin, "claude-code"],
  { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: home },
  { input: `${JSON.stringify(payload)}\n`, cwd: project },
);
const lastDueMs = (AFTER_SECONDS + (RUNGS.length - 1) * STEP_SECONDS) * 1000;
// Until the last rung (the phone call) is placed, or well past its time; the table says "never" for a rung missed.
const CHECK_MS = 100;
await eventually(() => channels.calls.length > 0, {
  what: "the last rung",
  intervalMs: CHECK_MS,
  checks: Math.ceil((lastDueMs + GRACE_MS) / CHECK_MS),
}).catch(() => undefined);
hook.kill();
await hook.exited.catch(() => undefined);

/** Each rung's time as the daemon logged it: from the call's start to its service's answer. */
const reachedMs = (rung: (typeof RUNGS)[number]): number | null => {
  const line = new RegExp(`escalation rung ${rung} at ([\\d.]+) s`).exec(daemon.stderr());
  return line?.[1] ? Number(line[1]) * 1000 : null;
};
const pushLine = /escalation rung push at [\d.]+ s: (.*)$/m.exec(daemon.stderr());
const rows = RUNGS.map((rung, index) => {
  const dueMs = (AFTER_SECONDS + index * STEP_SECONDS) * 1000;
  const reached = reachedMs(rung);
  return [
    rung,
    `${(dueMs / 1000).toFixed(0)} s`,
    reached === null ? "never" : `${(reached / 1000).toFixed(2)} s`,
    reached === null ? "-" : `${Math.round(reached - dueMs)} ms`,
  ];
});
const report = new BenchReport(
  "@ringback/e2e escalation-ladder",
  "@ringback/e2e: a needs-you call's escalation ladder, time from the call's start to each rung",
);
report.line(
  `Schedule: the first rung ${AFTER_SECONDS} s after the hook started, then one every ${STEP_SECONDS} s; real relay, daemon and hook, the channels' stand-ins on loopback. The push again: ${pushLine?.[1] ?? "not logged"}.`,
);
report.line();
report.table(["rung", "scheduled", "reached", "late by"], rows);
await report.save();
if (rows.some((row) => row[2] === "never")) process.exitCode = 1;
