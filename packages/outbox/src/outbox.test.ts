import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Brief, Report } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeBrief, makeReport } from "./__fixtures__/outbox-fixtures.js";
import { OUTBOX_JOURNAL_FILE } from "./file-format.js";
import type { GenerateBrief, OutboxOptions } from "./outbox.js";
import { Outbox } from "./outbox.js";
import type { SendFunction, SendOutcome } from "./sender.js";
import { OutboxStore } from "./store.js";

const START_MS = Date.UTC(2025, 0, 1, 12, 0, 0);
let directory: TemporaryDirectory;
const running: Outbox[] = [];

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
});

afterEach(async () => {
  for (const outbox of running.splice(0)) await outbox.stop();
  vi.useRealTimers();
  await directory.remove();
});

function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START_MS });
}

async function startOutbox(options: Partial<OutboxOptions> & Pick<OutboxOptions, "generateBrief">) {
  const outbox = new Outbox({ directory: directory.path, ...options });
  running.push(outbox);
  await outbox.start();
  return outbox;
}

const quickBrief: GenerateBrief = async (report) => makeBrief(report);

/** Counts generations per event id. */
function countingGenerator() {
  const calls = new Map<string, number>();
  const generate: GenerateBrief = async (report) => {
    calls.set(report.eventId, (calls.get(report.eventId) ?? 0) + 1);
    return makeBrief(report);
  };
  return { generate, calls };
}

/** A send that answers from a script and records when it was called. */
function scriptedSend(outcomes: SendOutcome[], fallback: SendOutcome = { kind: "sent" }) {
  const calls: { eventId: string; atMs: number; brief: Brief | null }[] = [];
  const send: SendFunction = async (entry) => {
    calls.push({ eventId: entry.report.eventId, atMs: Date.now(), brief: entry.brief });
    return outcomes.shift() ?? fallback;
  };
  return { send, calls };
}

describe("Outbox", () => {
  it("resolves enqueue only once the report is on disk", async () => {
    const outbox = await startOutbox({ generateBrief: () => new Promise<Brief>(() => undefined) });
    expect(await outbox.enqueue(makeReport(1))).toBe("accepted");
    const journal = await readFile(join(directory.path, OUTBOX_JOURNAL_FILE), "utf8");
    expect(journal).toContain(makeReport(1).eventId);
    expect(journal).toContain(makeReport(1).text);
  });

  it("generates, writes back and sends a report, then remembers it as sent", async () => {
    const { send, calls } = scriptedSend([]);
    const outbox = await startOutbox({ generateBrief: quickBrief, send });
    await outbox.enqueue(makeReport(1));
    await eventually(() => outbox.finishedEntries().length === 1);
    expect(calls[0]?.brief?.title).toBe("Brief of evt_0001");
    expect(outbox.finishedEntries()[0]).toMatchObject({ eventId: "evt_0001", state: "sent", reason: null });
    expect(outbox.entries()).toHaveLength(0);
  });

  it("generates at most 3 briefs at once, started in arrival order", async () => {
    const started: string[] = [];
    const finishers: (() => void)[] = [];
    let inProgress = 0;
    let mostAtOnce = 0;
    const generateBrief: GenerateBrief = (report) =>
      new Promise((resolve) => {
        started.push(report.eventId);
        inProgress += 1;
        mostAtOnce = Math.max(mostAtOnce, inProgress);
        finishers.push(() => {
          inProgress -= 1;
          resolve(makeBrief(report));
        });
      });
    const outbox = await startOutbox({ generateBrief });
    const reports = Array.from({ length: 7 }, (_, index) => makeReport(index));
    for (const report of reports) await outbox.enqueue(report);
    expect(started).toEqual(reports.slice(0, 3).map((report) => report.eventId));
    while (finishers.length > 0) {
      finishers.shift()?.();
      await eventually(() => finishers.length > 0 || started.length === reports.length);
      expect(inProgress).toBeLessThanOrEqual(3);
    }
    expect(started).toEqual(reports.map((report) => report.eventId));
    expect(mostAtOnce).toBe(3);
  });

  it("accepts an event id once: a second enqueue reports duplicate and no second brief is made", async () => {
    const { generate, calls } = countingGenerator();
    const outbox = await startOutbox({ generateBrief: generate });
    expect(await outbox.enqueue(makeReport(1))).toBe("accepted");
    expect(await outbox.enqueue(makeReport(1))).toBe("duplicate");
    await eventually(() => outbox.entries()[0]?.state === "generated");
    expect(calls.get("evt_0001")).toBe(1);
  });

  it("keeps generated entries waiting while no sender is configured", async () => {
    const outbox = await startOutbox({ generateBrief: quickBrief });
    await outbox.enqueue(makeReport(1));
    await eventually(() => outbox.entries()[0]?.state === "generated");
    await outbox.stop();

    const { send, calls } = scriptedSend([]);
    const withRelay = await startOutbox({ generateBrief: quickBrief, send });
    await eventually(() => withRelay.finishedEntries().length === 1);
    expect(calls.map((call) => call.eventId)).toEqual(["evt_0001"]);
  });

  it("sends the waiting reports, and the next ones, once a sender is given while it runs (a login)", async () => {
    const outbox = await startOutbox({ generateBrief: quickBrief });
    await outbox.enqueue(makeReport(1));
    await eventually(() => outbox.entries()[0]?.state === "generated");
    const { send, calls } = scriptedSend([]);
    outbox.startSending(send);
    outbox.startSending(scriptedSend([]).send);
    await eventually(() => outbox.finishedEntries().length === 1);
    await outbox.enqueue(makeReport(2));
    await eventually(() => outbox.finishedEntries().length === 2);
    // The first sender stays: a second startSending is a no-op.
    expect(calls.map((call) => call.eventId)).toEqual(["evt_0001", "evt_0002"]);
  });

  it("aborts a brief in progress on stop and generates it again at the next start", async () => {
    let sawAbort = false;
    const abortable: GenerateBrief = (report, signal) =>
      new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          sawAbort = true;
          // Like @ringback/brief, answer with a failed brief instead of throwing: it must be discarded.
          resolve(makeBrief(report, { status: "failed", error: "aborted" }));
        });
      });
    const first = await startOutbox({ generateBrief: abortable });
    await first.enqueue(makeReport(1));
    await eventually(() => first.entries()[0]?.state === "generating");
    await first.stop();
    expect(sawAbort).toBe(true);

    const onDisk = await OutboxStore.open(directory.path);
    expect(onDisk.get("evt_0001")).toMatchObject({ state: "accepted", brief: null });
    await onDisk.close();

    const { generate, calls } = countingGenerator();
    const sender = scriptedSend([]);
    const second = await startOutbox({ generateBrief: generate, send: sender.send });
    await eventually(() => second.finishedEntries().length === 1);
    expect(calls.get("evt_0001")).toBe(1);
    expect(sender.calls[0]?.brief?.meta.status).toBe("generated");
  });

  it("retries a brief generation that rejects, after the backoff", async () => {
    useFakeClock();
    let attempts = 0;
    const flaky: GenerateBrief = async (report: Report) => {
      attempts += 1;
      if (attempts === 1) throw new Error("model client bug");
      return makeBrief(report);
    };
    const log: string[] = [];
    const outbox = await startOutbox({ generateBrief: flaky, log: (line) => log.push(line) });
    await outbox.enqueue(makeReport(1));
    await eventually(() => vi.getTimerCount() === 1);
    await vi.advanceTimersToNextTimerAsync();
    await eventually(() => outbox.entries()[0]?.state === "generated");
    expect(attempts).toBe(2);
    expect(log.join("\n")).toContain("model client bug");
  });

  describe("sending", () => {
    beforeEach(useFakeClock);

    it("retries after 1 s, doubling each time up to 5 min", async () => {
      const { send, calls } = scriptedSend([], { kind: "retry", reason: "relay answered 503" });
      const outbox = await startOutbox({ generateBrief: quickBrief, send });
      await outbox.enqueue(makeReport(1));
      await eventually(() => calls.length === 1);
      for (let attempt = 2; attempt <= 12; attempt += 1) {
        await eventually(() => vi.getTimerCount() === 1);
        await vi.advanceTimersToNextTimerAsync();
        await eventually(() => calls.length === attempt);
      }
      const waits = calls.slice(1).map((call, index) => call.atMs - (calls[index]?.atMs ?? 0));
      expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000]);
    });

    it("continues the backoff across a restart from the persisted attempt count and time", async () => {
      const failing = scriptedSend([], { kind: "retry", reason: "network error" });
      const first = await startOutbox({ generateBrief: quickBrief, send: failing.send });
      await first.enqueue(makeReport(1));
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        await eventually(() => failing.calls.length === attempt && vi.getTimerCount() === 1);
        if (attempt < 3) await vi.advanceTimersToNextTimerAsync();
      }
      await first.stop();
      // Third failure at START+3 s: the fourth attempt is due 4 s later, at START+7 s.
      expect(failing.calls.map((call) => call.atMs - START_MS)).toEqual([0, 1000, 3000]);

      const { generate, calls: generations } = countingGenerator();
      const second = scriptedSend([{ kind: "retry", reason: "network error" }]);
      const restarted = await startOutbox({ generateBrief: generate, send: second.send });
      expect(restarted.entries()[0]).toMatchObject({ state: "generated", attempts: 3 });
      await eventually(() => vi.getTimerCount() === 1);
      await vi.advanceTimersToNextTimerAsync();
      await eventually(() => second.calls.length === 1 && vi.getTimerCount() === 1);
      expect(second.calls[0]?.atMs).toBe(START_MS + 7000);
      await vi.advanceTimersToNextTimerAsync();
      await eventually(() => second.calls.length === 2);
      expect(second.calls[1]?.atMs).toBe(START_MS + 7000 + 8000);
      expect(generations.size).toBe(0);
    });

    it("sends at once at start when the persisted attempt time passed while stopped", async () => {
      const failing = scriptedSend([{ kind: "retry", reason: "relay answered 502" }]);
      const first = await startOutbox({ generateBrief: quickBrief, send: failing.send });
      await first.enqueue(makeReport(1));
      await eventually(() => failing.calls.length === 1 && vi.getTimerCount() === 1);
      await first.stop();
      vi.setSystemTime(START_MS + 60_000);

      const second = scriptedSend([]);
      const restarted = await startOutbox({ generateBrief: quickBrief, send: second.send });
      await eventually(() => restarted.finishedEntries().length === 1);
      expect(second.calls[0]?.atMs).toBe(START_MS + 60_000);
    });

    it("holds a report until the time holdUntil gave it, then sends it; a report without a hold goes at once", async () => {
      const { send, calls } = scriptedSend([]);
      const holdUntil = (report: Report) => (report.eventId === "evt_0001" ? START_MS + 20_000 : null);
      const outbox = await startOutbox({ generateBrief: quickBrief, send, holdUntil });
      await outbox.enqueue(makeReport(1));
      await outbox.enqueue(makeReport(2));
      await eventually(() => calls.length === 1 && vi.getTimerCount() === 1);
      expect(calls[0]?.eventId).toBe("evt_0002");
      expect(outbox.entries()[0]).toMatchObject({ state: "generated", attempts: 0 });
      await vi.advanceTimersByTimeAsync(19_999);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await eventually(() => calls.length === 2);
      expect(calls[1]).toMatchObject({ eventId: "evt_0001", atMs: START_MS + 20_000 });
    });

    it("keeps a hold across a restart: the report goes at the held time, not at the start", async () => {
      const first = await startOutbox({
        generateBrief: quickBrief,
        send: scriptedSend([]).send,
        holdUntil: () => START_MS + 20_000,
      });
      await first.enqueue(makeReport(1));
      await eventually(() => first.entries()[0]?.state === "generated");
      await first.stop();
      vi.setSystemTime(START_MS + 5_000);

      const { send, calls } = scriptedSend([]);
      const asked: string[] = [];
      const restarted = await startOutbox({
        generateBrief: quickBrief,
        send,
        holdUntil: (report) => {
          asked.push(report.eventId);
          return null;
        },
      });
      expect(await restarted.enqueue(makeReport(1))).toBe("duplicate");
      await vi.advanceTimersByTimeAsync(14_999);
      expect(calls).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      await eventually(() => calls.length === 1);
      expect(calls[0]?.atMs).toBe(START_MS + 20_000);
      expect(asked).toEqual([]);
    });

    it("never regenerates a generated brief after a send failure or a restart", async () => {
      const { generate, calls } = countingGenerator();
      const failing = scriptedSend([], { kind: "retry", reason: "relay answered 500" });
      const first = await startOutbox({ generateBrief: generate, send: failing.send });
      await first.enqueue(makeReport(1));
      await eventually(() => failing.calls.length === 1 && vi.getTimerCount() === 1);
      await vi.advanceTimersToNextTimerAsync();
      await eventually(() => failing.calls.length === 2);
      await first.stop();

      const working = scriptedSend([]);
      const second = await startOutbox({ generateBrief: generate, send: working.send });
      await vi.advanceTimersByTimeAsync(2000);
      await eventually(() => second.finishedEntries().length === 1);
      expect(calls.get("evt_0001")).toBe(1);
      expect(working.calls[0]?.brief).toEqual(failing.calls[0]?.brief);
    });

    it("waits at least the relay's Retry-After", async () => {
      const { send, calls } = scriptedSend([
        { kind: "retry", reason: "relay answered 429", retryAfterMs: 20_000 },
      ]);
      const outbox = await startOutbox({ generateBrief: quickBrief, send });
      await outbox.enqueue(makeReport(1));
      await eventually(() => calls.length === 1 && vi.getTimerCount() === 1);
      await vi.advanceTimersToNextTimerAsync();
      await eventually(() => calls.length === 2);
      expect((calls[1]?.atMs ?? 0) - (calls[0]?.atMs ?? 0)).toBe(20_000);
    });

    it("drops a report the relay refuses with a 4xx other than 409, and logs why", async () => {
      const log: string[] = [];
      const reason = "relay answered 400 invalid_request";
      const { send, calls } = scriptedSend([{ kind: "drop", reason }]);
      const outbox = await startOutbox({ generateBrief: quickBrief, send, log: (line) => log.push(line) });
      await outbox.enqueue(makeReport(1));
      await eventually(() => log.includes(`outbox: dropped evt_0001: ${reason}`));
      expect(outbox.finishedEntries()[0]).toMatchObject({ state: "dropped", reason });
      await vi.advanceTimersByTimeAsync(600_000);
      expect(calls).toHaveLength(1);
    });

    it("treats 409 duplicate_task as done", async () => {
      const { send, calls } = scriptedSend([{ kind: "duplicate" }]);
      const outbox = await startOutbox({
        generateBrief: quickBrief,
        send,
      });
      await outbox.enqueue(makeReport(1, { source: "tracker" }));
      await eventually(() => outbox.finishedEntries().length === 1);
      expect(outbox.finishedEntries()[0]).toMatchObject({ state: "sent", reason: "duplicate_task" });
      await vi.advanceTimersByTimeAsync(600_000);
      expect(calls).toHaveLength(1);
    });
  });
});
