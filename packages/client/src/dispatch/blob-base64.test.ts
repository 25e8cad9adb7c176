import { describe, expect, it } from "vitest";
import { blobToBase64 } from "./blob-base64.js";

describe("an image's bytes as base64", () => {
  it("matches standard base64 across chunk boundaries", async () => {
    const bytes = new Uint8Array(100_003).map((_, index) => (index * 7919) % 256);
    expect(await blobToBase64(new Blob([bytes]))).toBe(Buffer.from(bytes).toString("base64"));
  });

  it("is empty for an empty file", async () => {
    expect(await blobToBase64(new Blob([]))).toBe("");
  });
});
