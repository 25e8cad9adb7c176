import { describe, expect, it } from "vitest";
import { aad } from "./aad.js";
import { DEVICE_NAME_PADDED_BYTES, openDeviceName, sealDeviceName } from "./device-name.js";
import { generateKey } from "./key.js";
import { openString } from "./open.js";
import { sealJson, sealString } from "./seal.js";

const encoder = new TextEncoder();

describe("sealDeviceName / openDeviceName", () => {
  const key = generateKey();

  it.each([
    ["a short ASCII name", "Pixel"],
    ["a non-ASCII name", "Téléphone de Zoë 📱"],
    ["100 CJK characters", "电".repeat(100)],
    ["100 characters JSON escapes", "\u0001".repeat(100)],
    ["quotes and backslashes", 'Bob\'s "work" \\ laptop'],
  ])("round-trips %s, sealed to one length whatever the name", async (_case, name) => {
    const sealed = await sealDeviceName(key, name);
    expect(await openDeviceName(key, sealed)).toBe(name);
    const plaintext = await openString(key, aad.deviceName(), sealed);
    expect(encoder.encode(plaintext).length).toBe(DEVICE_NAME_PADDED_BYTES);
    expect(JSON.parse(plaintext)).toEqual({ name });
    expect(sealed.length).toBe((await sealDeviceName(key, "x")).length);
  });

  it("refuses a name whose JSON does not fit the padded length", async () => {
    await expect(sealDeviceName(key, "\u0001".repeat(200))).rejects.toBeInstanceOf(RangeError);
  });

  it("does not open another purpose's text as a name, nor a name as another purpose", async () => {
    const report = await sealJson(key, aad.report("evt-1"), { name: "Pixel" });
    await expect(openDeviceName(key, report)).rejects.toMatchObject({ code: "corrupted" });
    const name = await sealDeviceName(key, "Pixel");
    await expect(openString(key, aad.report("evt-1"), name)).rejects.toMatchObject({ code: "corrupted" });
  });

  it("is corrupted when the plaintext is not {name: string}, key_mismatch under another key", async () => {
    for (const plaintext of ['"Pixel"', '{"name":7}', "null", "not json"]) {
      const sealed = await sealString(key, aad.deviceName(), plaintext);
      await expect(openDeviceName(key, sealed)).rejects.toMatchObject({ code: "corrupted" });
    }
    const sealed = await sealDeviceName(generateKey(), "Pixel");
    await expect(openDeviceName(key, sealed)).rejects.toMatchObject({ code: "key_mismatch" });
    await expect(openDeviceName(key, "Pixel")).rejects.toMatchObject({ code: "corrupted" });
  });

  it("names the purpose alone in its associated data", () => {
    expect(aad.deviceName()).toBe("ringback/v1/device-name");
  });
});
