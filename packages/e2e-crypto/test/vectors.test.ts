import { describe, expect, it } from "vitest";
import * as source from "../src/index.js";
import { importDist, loadVectors } from "./load-vectors.ts";
import { vectorChecks } from "./vector-checks.ts";

const vectors = loadVectors();
const checks = vectorChecks(vectors);

describe.each([
  ["src", async () => source],
  ["dist", importDist],
])("test-vectors.json against %s in Node", (_target, load) => {
  it.each(checks)("$name", async (check) => {
    await check.run(await load());
  });
});

describe("test-vectors.json", () => {
  it("covers every purpose, a JSON and a non-ASCII plaintext, NFC/NFD, device names, tampering and a wrong key", () => {
    expect(new Set(vectors.seal.map((vector) => vector.purpose))).toEqual(new Set(source.AAD_PURPOSES));
    expect(new Set(vectors.sealAddressed.map((vector) => vector.purpose))).toEqual(
      new Set(source.ADDRESSED_AAD_PURPOSES),
    );
    expect(vectors.seal.some((vector) => vector.json !== undefined)).toBe(true);
    expect(
      vectors.seal.some((vector) => [...vector.plaintext].some((char) => char.codePointAt(0)! > 0x7f)),
    ).toBe(true);
    const keysByNfc = new Map<string, Set<string>>();
    for (const vector of vectors.passphrases) {
      const nfc = vector.passphrase.normalize("NFC");
      keysByNfc.set(nfc, (keysByNfc.get(nfc) ?? new Set()).add(vector.passphrase));
    }
    expect([...keysByNfc.values()].some((inputs) => inputs.size > 1)).toBe(true);
    // Device names of every length are sealed to one length.
    expect(vectors.sealDeviceNames.length).toBeGreaterThan(1);
    expect(new Set(vectors.sealDeviceNames.map((vector) => vector.sealed.length)).size).toBe(1);
    // Fleet states are sealed to whole steps, and states of more than one step are covered.
    for (const vector of vectors.sealFleetStates) expect(vector.plaintextBytes % vector.padStepBytes).toBe(0);
    expect(new Set(vectors.sealFleetStates.map((vector) => vector.plaintextBytes)).size).toBeGreaterThan(1);
    const expected = new Set(vectors.openFailures.map((vector) => vector.expect));
    expect(expected).toEqual(new Set(["corrupted", "key_mismatch"]));
  });
});
