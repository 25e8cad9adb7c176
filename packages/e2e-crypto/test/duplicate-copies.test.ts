import { describe, expect, it } from "vitest";
import * as source from "../src/index.js";
import { importDist } from "./load-vectors.ts";

describe("two loaded copies of the package", () => {
  it("recognise each other's errors with isE2eError, though instanceof does not", async () => {
    const dist = await importDist();
    expect(dist.E2eError).not.toBe(source.E2eError);
    let thrown: unknown;
    try {
      dist.parseKey("not a key");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).not.toBeInstanceOf(source.E2eError);
    expect(source.isE2eError(thrown, "invalid_key")).toBe(true);
    expect(dist.isE2eError(new source.E2eError("corrupted", "x"), "corrupted")).toBe(true);
  });

  it("share keys and sealed strings", async () => {
    const dist = await importDist();
    const key = source.generateKey();
    const sealed = await dist.sealString(key, dist.aad.reply("evt-1"), "between copies");
    expect(await source.openString(key, source.aad.reply("evt-1"), sealed)).toBe("between copies");
  });
});
