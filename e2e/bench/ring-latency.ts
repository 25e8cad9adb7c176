import { join } from "node:path";
import { writeHookView } from "../harness/daemon-files.ts";
import { claudeStopPayload, runHook } from "../harness/hook-process.ts";
import { startSystem } from "../harness/system.ts";
import { startPostStopwatch } from "./post-stopwatch.ts";

export interface RingLatencySamples {
  /** From the first byte of the hook's POST /report to the daemon's 202 (ms). */
  readonly postToAccepted: number[];
  /** From the first byte of the hook's POST /report to the ringing screen in Chromium (ms). */
  readonly postToRinging: number[];
}

const REPORT_TEXT =
  "I fixed the flaky login test: the session cookie expired during slow CI runs. All 214 tests pass now. " +
  "Should I also raise the session lifetime in production from 1 hour to 8 hours?";

/**
 * The whole path with an instant model (the fake's echo brief): the real hook posts a report, the daemon writes the
 * brief, seals it and posts it to the relay, and one paired Chromium device rings. Each call is rejected before
 * the next report, so every report rings at once rather than waiting in the queue.
 */
export async function measureRingLatency(reports: number, warmUps: number): Promise<RingLatencySamples> {
  await using system = await startSystem();
  const device = await system.addDevice("bench phone");
  await using stopwatch = await startPostStopwatch(Number(new URL(system.daemon.url).port));
  // The hook's own RINGBACK_HOME points it at the stopwatch in front of the daemon.
  const hookHome = join(system.directory.path, "hook-home");
  await writeHookView(hookHome, stopwatch.port, system.daemon.localKey);

  const samples: RingLatencySamples = { postToAccepted: [], postToRinging: [] };
  for (let index = 0; index < warmUps + reports; index += 1) {
    const payload = claudeStopPayload(REPORT_TEXT, { cwd: system.projectDir });
    const hook = await runHook("claude-code", payload, { home: hookHome, cwd: system.projectDir });
    if (!/took the report \(202\)/.test(hook.stderr))
      throw new Error(`the hook did not report:\n${hook.stderr}`);
    const passage = stopwatch.passages.at(-1);
    const eventId = await device.waitForRinging();
    const rangAt = (await device.ringTimes())[eventId];
    await device.reject(eventId);
    if (!passage?.answerAt || rangAt === undefined) throw new Error("a report was not timed");
    if (index < warmUps) continue;
    samples.postToAccepted.push(passage.answerAt - passage.requestAt);
    samples.postToRinging.push(rangAt - passage.requestAt);
  }
  return samples;
}
