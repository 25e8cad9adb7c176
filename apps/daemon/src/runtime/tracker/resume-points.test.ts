import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RESUME_LOOK_BACK_MAX_MS, RESUME_POINTS_FILE, ResumePoints } from "./resume-points.js";

const NOW = new Date("2026-11-26T10:00:00.000Z");
let directory: TemporaryDirectory;
let logLines: string[];

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
  logLines = [];
});

afterEach(async () => {
  await directory.remove();
});

function load() {
  return ResumePoints.load(
    directory.path,
    (line) => logLines.push(line),
    () => NOW,
  );
}

const filePath = () => join(directory.path, RESUME_POINTS_FILE);
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

describe("where the tracker's watchers resume after a restart", () => {
  it("is nowhere at the first start; once noted it is on disk (600) and the next start resumes from it", async () => {
    const first = await load();
    expect(first.startingSince("ws-1")).toBeUndefined();

    first.note("ws-1", minutesAgo(90));
    first.note("ws-2", minutesAgo(5));
    await first.flush();

    expect((await stat(filePath())).mode & 0o777).toBe(0o600);
    const next = await load();
    expect(next.startingSince("ws-1")).toEqual(minutesAgo(90));
    expect(next.startingSince("ws-2")).toEqual(minutesAgo(5));
    expect(next.startingSince("ws-3")).toBeUndefined();
    expect(logLines).toContainEqual(
      `tracker: workspace ws-1 catches up from ${minutesAgo(90).toISOString()}, where the last run got to`,
    );
  });

  it("looks back 24 hours at most, and never past now", async () => {
    const first = await load();
    first.note("stopped-for-days", minutesAgo(3 * 24 * 60));
    first.note("clock-moved-back", new Date(NOW.getTime() + 60_000));
    await first.flush();

    const next = await load();

    expect(next.startingSince("stopped-for-days")).toEqual(new Date(NOW.getTime() - RESUME_LOOK_BACK_MAX_MS));
    expect(next.startingSince("clock-moved-back")).toEqual(NOW);
    expect(logLines.some((line) => line.includes("a start looks back 24 hours at most"))).toBe(true);
  });

  it("is nowhere when the file is garbage, says so, and is written whole again", async () => {
    await writeFile(filePath(), '{"version":1,"resumeSince":{"ws-1":"yesterday"}', { mode: 0o600 });

    const points = await load();

    expect(points.startingSince("ws-1")).toBeUndefined();
    expect(logLines).toContainEqual(expect.stringContaining(`${filePath()} could not be read`));
    points.note("ws-1", minutesAgo(1));
    await points.flush();
    expect((await load()).startingSince("ws-1")).toEqual(minutesAgo(1));
  });

  it("is nowhere when the file cannot be read at all, says so, and does not stop the start", async () => {
    await mkdir(filePath());

    const points = await load();

    expect(points.startingSince("ws-1")).toBeUndefined();
    expect(logLines).toContainEqual(expect.stringMatching(/could not be read \(.*EISDIR/));
    points.note("ws-1", minutesAgo(1));
    await points.flush();
  });
});
