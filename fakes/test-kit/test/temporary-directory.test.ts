import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTemporaryDirectory } from "../src/index.js";

describe("makeTemporaryDirectory", () => {
  it("is deleted with what it holds when its scope ends", async () => {
    let path = "";
    {
      await using directory = await makeTemporaryDirectory("ringback-kit-");
      path = directory.path;
      await writeFile(join(path, "file.txt"), "x");
      expect(existsSync(join(path, "file.txt"))).toBe(true);
    }
    expect(path).toContain("ringback-kit-");
    expect(existsSync(path)).toBe(false);
  });
});
