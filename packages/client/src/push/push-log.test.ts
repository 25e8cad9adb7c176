import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { logPushStep, PUSH_LOG_MAX, readPushLog } from "./push-log.js";

const at = (second: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, second));

describe("the worker's push log", () => {
  it("keeps each push's steps newest first, with the call and the time", async () => {
    const store = createMemoryStore();
    await logPushStep(store, "ev1", "received", at(1));
    await logPushStep(store, "ev1", "shown", at(2));
    await logPushStep(store, null, "quiet: unpaired", at(3));
    expect(await readPushLog(store)).toEqual([
      { at: at(3).toISOString(), eventId: null, step: "quiet: unpaired" },
      { at: at(2).toISOString(), eventId: "ev1", step: "shown" },
      { at: at(1).toISOString(), eventId: "ev1", step: "received" },
    ]);
  });

  it("loses no step of pushes handled at once, and keeps only the newest", async () => {
    const store = createMemoryStore();
    await Promise.all(
      Array.from({ length: PUSH_LOG_MAX + 5 }, (_, index) =>
        logPushStep(store, `ev${index}`, "received", at(index)),
      ),
    );
    const log = await readPushLog(store);
    expect(log).toHaveLength(PUSH_LOG_MAX);
    expect(log[0]?.eventId).toBe(`ev${PUSH_LOG_MAX + 4}`);
    expect(log.at(-1)?.eventId).toBe("ev5");
  });

  it("loses only the step when storage fails", async () => {
    const store = createMemoryStore();
    const failing = { ...store, set: async () => Promise.reject(new Error("quota")) };
    await expect(logPushStep(failing, "ev1", "received")).resolves.toBeUndefined();
    await logPushStep(store, "ev2", "shown", at(9));
    expect((await readPushLog(store)).map((entry) => entry.eventId)).toEqual(["ev2"]);
  });
});
