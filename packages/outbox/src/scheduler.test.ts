import { CONCURRENT_BRIEF_GENERATIONS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { BriefScheduler } from "./scheduler.js";

/** A generation the test finishes by hand. */
function slowGenerations() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const aborted: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const task = (eventId: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      started.push(eventId);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const finish = () => {
        running -= 1;
        resolve();
      };
      finishers.set(eventId, finish);
      signal.addEventListener("abort", () => {
        aborted.push(eventId);
        finish();
      });
    });
  return {
    task,
    started,
    aborted,
    finish: (eventId: string) => finishers.get(eventId)?.(),
    mostAtOnce: () => mostAtOnce,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("BriefScheduler", () => {
  it("runs at most 3 generations at once and starts them in arrival order", async () => {
    const generations = slowGenerations();
    const scheduler = new BriefScheduler(generations.task);
    const ids = Array.from({ length: 8 }, (_, index) => `evt_${index}`);
    for (const id of ids) scheduler.add(id);

    expect(CONCURRENT_BRIEF_GENERATIONS).toBe(3);
    expect(generations.started).toEqual(["evt_0", "evt_1", "evt_2"]);
    generations.finish("evt_1");
    await settle();
    expect(generations.started).toEqual(["evt_0", "evt_1", "evt_2", "evt_3"]);
    for (const id of ids) {
      generations.finish(id);
      await settle();
    }
    expect(generations.started).toEqual(ids);
    expect(generations.mostAtOnce()).toBe(3);
  });

  it("ignores an event id that is already queued or running", async () => {
    const generations = slowGenerations();
    const scheduler = new BriefScheduler(generations.task, 1);
    scheduler.add("evt_a");
    scheduler.add("evt_b");
    scheduler.add("evt_a");
    scheduler.add("evt_b");
    generations.finish("evt_a");
    await settle();
    generations.finish("evt_b");
    await settle();
    expect(generations.started).toEqual(["evt_a", "evt_b"]);
  });

  it("aborts the generations in progress on stop, waits for them, and starts no more", async () => {
    const generations = slowGenerations();
    const scheduler = new BriefScheduler(generations.task);
    for (const id of ["evt_0", "evt_1", "evt_2", "evt_3", "evt_4"]) scheduler.add(id);
    await scheduler.stop();
    expect(generations.aborted).toEqual(["evt_0", "evt_1", "evt_2"]);
    expect(scheduler.runningCount).toBe(0);
    scheduler.add("evt_5");
    await settle();
    expect(generations.started).toEqual(["evt_0", "evt_1", "evt_2"]);
  });

  it("keeps going after a generation that throws", async () => {
    const started: string[] = [];
    const scheduler = new BriefScheduler(async (eventId) => {
      started.push(eventId);
      if (eventId === "evt_bad") throw new Error("bug");
    }, 1);
    scheduler.add("evt_bad");
    scheduler.add("evt_good");
    await settle();
    expect(started).toEqual(["evt_bad", "evt_good"]);
  });
});
