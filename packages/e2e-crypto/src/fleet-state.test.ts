import { describe, expect, it } from "vitest";
import { aad } from "./aad.js";
import { openFleetState, sealFleetState } from "./fleet-state.js";
import { generateKey } from "./key.js";
import { openString } from "./open.js";
import { sealJson, sealString } from "./seal.js";
import { sealedPlaintextBytes } from "./sealed-format.js";

const encoder = new TextEncoder();
const STEP = 1024;

function stateOf(agents: number): unknown {
  return {
    version: 3,
    updatedAt: "2026-12-07T03:00:00.000Z",
    agents: Array.from({ length: agents }, (_, index) => ({
      agentId: `claude:session-${index}`,
      source: "claude",
      project: "payments — café",
      state: "working",
      since: "2026-12-07T02:48:00.000Z",
      eventId: null,
      headline: null,
    })),
  };
}

describe("sealFleetState / openFleetState", () => {
  const key = generateKey();

  it.each([
    ["no agents", 0],
    ["one agent", 1],
    ["many agents", 40],
  ])("round-trips %s, padded with spaces to a multiple of the step", async (_case, agents) => {
    const state = stateOf(agents);
    const sealed = await sealFleetState(key, "dev_laptop", state, STEP);
    expect(await openFleetState(key, "dev_laptop", sealed)).toEqual(state);
    const plaintext = await openString(key, aad.fleet("dev_laptop"), sealed);
    const bytes = encoder.encode(plaintext).length;
    expect(bytes % STEP).toBe(0);
    expect(bytes - encoder.encode(JSON.stringify(state)).length).toBeLessThan(STEP);
    expect(plaintext.trimEnd()).toBe(JSON.stringify(state));
    expect(sealedPlaintextBytes(sealed)).toBe(bytes);
  });

  it("seals states of different sizes within one step to one length", async () => {
    const small = await sealFleetState(key, "dev_laptop", stateOf(0), STEP);
    const larger = await sealFleetState(key, "dev_laptop", stateOf(2), STEP);
    expect(small.length).toBe(larger.length);
  });

  it("does not open one computer's state as another's, nor another purpose's text as a state", async () => {
    const sealed = await sealFleetState(key, "dev_a", stateOf(1), STEP);
    await expect(openFleetState(key, "dev_b", sealed)).rejects.toMatchObject({ code: "corrupted" });
    const report = await sealJson(key, aad.report("dev_a"), stateOf(1));
    await expect(openFleetState(key, "dev_a", report)).rejects.toMatchObject({ code: "corrupted" });
    await expect(openFleetState(generateKey(), "dev_a", sealed)).rejects.toMatchObject({
      code: "key_mismatch",
    });
  });

  it("is corrupted when the plaintext is not a JSON object", async () => {
    for (const plaintext of ["[]", "null", "7", "not json"]) {
      const sealed = await sealString(key, aad.fleet("dev_a"), plaintext);
      await expect(openFleetState(key, "dev_a", sealed)).rejects.toMatchObject({ code: "corrupted" });
    }
  });

  it("refuses a step that is not a positive whole number and an id that cannot name a computer", async () => {
    for (const step of [0, -1, 1.5, Number.NaN]) {
      await expect(sealFleetState(key, "dev_a", stateOf(0), step)).rejects.toBeInstanceOf(RangeError);
    }
    await expect(sealFleetState(key, "dev/a", stateOf(0), STEP)).rejects.toMatchObject({
      code: "invalid_aad",
    });
  });
});
