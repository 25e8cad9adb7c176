import { CONCURRENT_BRIEFS_PER_ENDPOINT } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { ModelSlots } from "./model-slots.js";

/** A call that runs until the test ends it. */
function heldCall() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => done, finish };
}

describe("ModelSlots", () => {
  it("runs one call at a time against a local endpoint, in arrival order", async () => {
    const slots = new ModelSlots();
    const started: string[] = [];
    const first = heldCall();
    const running = [
      slots.run("http://127.0.0.1:8080/v1", undefined, () => {
        started.push("first");
        return first.work();
      }),
      slots.run("http://127.0.0.1:8080/v1/", undefined, async () => {
        started.push("second");
      }),
    ];
    await Promise.resolve();
    expect(started).toEqual(["first"]);

    first.finish();
    await Promise.all(running);

    expect(started).toEqual(["first", "second"]);
  });

  it(`runs ${CONCURRENT_BRIEFS_PER_ENDPOINT.hosted} at once against a hosted endpoint, and two local servers apart`, async () => {
    const slots = new ModelSlots();
    const held = heldCall();
    let started = 0;
    const call = (baseUrl: string) =>
      slots.run(baseUrl, undefined, () => {
        started++;
        return held.work();
      });
    const running = [
      ...Array.from({ length: CONCURRENT_BRIEFS_PER_ENDPOINT.hosted + 1 }, () =>
        call("https://api.example.com/v1"),
      ),
      call("http://127.0.0.1:8080/v1"),
      call("http://192.168.1.20:11434/v1"),
    ];
    await Promise.resolve();

    expect(started).toBe(CONCURRENT_BRIEFS_PER_ENDPOINT.hosted + 2);
    held.finish();
    await Promise.all(running);
    expect(started).toBe(CONCURRENT_BRIEFS_PER_ENDPOINT.hosted + 3);
  });

  it("lets a call waiting for its turn be aborted, and the next one take the slot", async () => {
    const slots = new ModelSlots();
    const first = heldCall();
    const controller = new AbortController();
    const running = slots.run("http://localhost:1234/v1", undefined, first.work);
    const aborted = slots.run("http://localhost:1234/v1", controller.signal, async () => "never");
    const third = slots.run("http://localhost:1234/v1", undefined, async () => "third");

    controller.abort(new Error("the outbox is stopping"));
    await expect(aborted).rejects.toThrow("the outbox is stopping");
    first.finish();

    await running;
    expect(await third).toBe("third");
  });
});
