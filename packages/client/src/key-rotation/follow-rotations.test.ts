import { aad, type E2eKey, generateKey, sealJson } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import { followKeyRotations } from "./follow-rotations.js";
import { openKeyRotation, sealKeyRotation } from "./rotation-notice.js";

describe("following an account's key rotation notices", () => {
  it("moves a key that missed two rotations to the newest, whatever order the notices come in", async () => {
    const first = await sealKeyRotation(generateKey(), { removedDeviceId: "dev-old-phone" });
    const second = await sealKeyRotation(first.next, { removedDeviceId: "dev-tablet" });
    const followed = await followKeyRotations(first.previous, [second.notice, first.notice]);
    expect(followed.steps).toBe(2);
    expect(followed.key).toBe(second.next);
    expect(await followKeyRotations(first.next, [first.notice, second.notice])).toEqual({
      key: second.next,
      steps: 1,
    });
  });

  it("leaves a key no notice is sealed under as it is (one it never held, or the newest)", async () => {
    const rotation = await sealKeyRotation(generateKey(), { removedDeviceId: null });
    const stranger = generateKey();
    expect(await followKeyRotations(stranger, [rotation.notice])).toEqual({ key: stranger, steps: 0 });
    expect(await followKeyRotations(rotation.next, [rotation.notice])).toEqual({
      key: rotation.next,
      steps: 0,
    });
    expect(await followKeyRotations(stranger, [])).toEqual({ key: stranger, steps: 0 });
  });

  it("takes no step on a notice that does not open: tampered, or with its rotation id swapped", async () => {
    const rotation = await sealKeyRotation(generateKey(), { removedDeviceId: null });
    const [version, id, iv, data] = rotation.notice.sealed.split(".") as [string, string, string, string];
    const flipped = `${data.slice(0, -2)}${data.endsWith("AA") ? "BA" : "AA"}`;
    const tampered = { ...rotation.notice, sealed: [version, id, iv, flipped].join(".") };
    const renamed = { ...rotation.notice, rotationId: "another-id" };
    expect((await followKeyRotations(rotation.previous, [tampered, renamed])).steps).toBe(0);
    expect(await openKeyRotation(rotation.previous, renamed)).toBeNull();
  });

  it("ends at a key met twice, so notices that lead back never loop", async () => {
    const there = await sealKeyRotation(generateKey(), { removedDeviceId: null });
    // A notice from the new key back to the first one (the same phrase typed again, say): the walk stops there.
    const back = await noticeHanding(there.next, there.previous);
    expect(await followKeyRotations(there.previous, [there.notice, back])).toEqual({
      key: there.next,
      steps: 1,
    });
  });
});

/** A notice handing a chosen key to holders of `previous` (`sealKeyRotation` always makes a fresh one). */
async function noticeHanding(previous: E2eKey, next: E2eKey) {
  const rotationId = "back-to-the-start";
  const plaintext = { key: next, rotatedAt: new Date().toISOString(), removedDeviceId: null };
  return { rotationId, sealed: await sealJson(previous, aad.keyRotation(rotationId), plaintext) };
}
