import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { findLastRecord } from "./transcript.js";

const dirs: TemporaryDirectory[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => dir.remove()));
});

async function transcript(content: string): Promise<string> {
  const dir = await makeTemporaryDirectory("ringback-transcript-");
  dirs.push(dir);
  await writeFile(join(dir.path, "t.jsonl"), content);
  return join(dir.path, "t.jsonl");
}

const search = {
  mightMatch: (line: string) => line.includes("want"),
  pick: (record: unknown) => (record as { want?: string }).want,
  deadline: Number.POSITIVE_INFINITY,
};

describe("findLastRecord", () => {
  it("returns the last matching record, skipping later ones that do not match", async () => {
    const path = await transcript('{"want":"first"}\n{"want":"last"}\n{"other":1}\n');
    expect(await findLastRecord(path, search)).toBe("last");
  });

  it("reads lines longer than its chunk and a file without a final newline", async () => {
    const long = "y".repeat(700 * 1024);
    const path = await transcript(`{"want":"${long}"}\n{"pad":"${long}"}\n{"x":0}`);
    expect(await findLastRecord(path, search)).toBe(long);
  });

  it("skips a last line still being written", async () => {
    const path = await transcript('{"want":"done"}\n{"want":"half');
    expect(await findLastRecord(path, search)).toBe("done");
  });

  it("finds a match on the first line", async () => {
    expect(await findLastRecord(await transcript('{"want":"only"}'), search)).toBe("only");
  });

  it("gives up once the deadline has passed, and on a missing file", async () => {
    const path = await transcript('{"want":"x"}\n');
    expect(await findLastRecord(path, { ...search, deadline: Date.now() - 1 })).toBeUndefined();
    expect(await findLastRecord(join(tmpdir(), "no-such-transcript.jsonl"), search)).toBeUndefined();
  });
});
