import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openFileStore } from "./file-key-value.js";

describe("file store", () => {
  let directory: TemporaryDirectory;
  let dir = "";
  beforeEach(async () => {
    directory = await makeTemporaryDirectory("ringback-client-store-");
    dir = directory.path;
  });
  afterEach(async () => {
    await directory.remove();
  });

  it("keeps values, binary data included, across openings", async () => {
    const path = join(dir, "nested", "store.bin");
    const store = await openFileStore(path);
    await store.set("identity", { deviceId: "dev1" });
    await store.set("tone", new Uint8Array([1, 2, 3]).buffer);
    await store.set("gone", 1);
    await store.delete("gone");
    const reopened = await openFileStore(path);
    expect(await reopened.keys()).toEqual(["identity", "tone"]);
    expect(await reopened.get("identity")).toEqual({ deviceId: "dev1" });
    expect(new Uint8Array((await reopened.get<ArrayBuffer>("tone")) ?? new ArrayBuffer(0))).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });

  it("hands out copies: changing a value read does not change the store", async () => {
    const store = await openFileStore(join(dir, "store.bin"));
    await store.set("list", [1]);
    (await store.get<number[]>("list"))?.push(2);
    expect(await store.get("list")).toEqual([1]);
  });

  it("refuses a file that is not a store", async () => {
    const path = join(dir, "other.bin");
    await writeFile(path, Buffer.from([0xff, 0x0d, 0x22, 0x01, 0x61]));
    await expect(openFileStore(path)).rejects.toThrow();
    expect((await readFile(path)).length).toBe(5);
  });
});
