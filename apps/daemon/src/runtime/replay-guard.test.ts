import { mkdir, readFile, rmdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPLY_EXPIRY_MS, REQUEST_CLOCK_WINDOW_MS, type RequestStamp } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReplayGuard, SEEN_REQUESTS_FILE } from "./replay-guard.js";

const MINUTE_MS = 60_000;
let directory: TemporaryDirectory;
let now: Date;
let logLines: string[];

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
  now = new Date("2026-11-25T10:00:00.000Z");
  logLines = [];
});

afterEach(async () => {
  await directory.remove();
});

function load(options: { maxNonces?: number } = {}) {
  return ReplayGuard.load(directory.path, (line) => logLines.push(line), { now: () => now, ...options });
}

let nonceCount = 0;
/** A stamp sealed `offsetMs` from the computer's time, with a fresh nonce (or the one given). */
function stamp(offsetMs = 0, nonce?: string): RequestStamp {
  nonceCount += 1;
  return {
    sentAt: new Date(now.getTime() + offsetMs).toISOString(),
    nonce: nonce ?? `nonce-${String(nonceCount).padStart(16, "0")}`,
  };
}

async function file() {
  return JSON.parse(await readFile(join(directory.path, SEEN_REQUESTS_FILE), "utf8")) as {
    notBefore: number;
    seen: Record<string, number>;
  };
}

describe("ReplayGuard", () => {
  it("takes a request once: its nonce again is replayed", async () => {
    const guard = await load();
    const request = stamp();
    expect(await guard.admit("settings-request", request)).toBe("accepted");
    expect(await guard.admit("settings-request", request)).toBe("replayed");
    expect(await guard.admit("reply", request)).toBe("replayed");
    expect(await guard.admit("settings-request", stamp())).toBe("accepted");
  });

  it("takes one of two copies that arrive at once", async () => {
    const guard = await load();
    const request = stamp();
    const outcomes = await Promise.all([
      guard.admit("settings-request", request),
      guard.admit("settings-request", request),
    ]);
    expect(outcomes.sort()).toEqual(["accepted", "replayed"]);
  });

  it("refuses a settings request outside the clock window either way, and keeps a reply a day", async () => {
    const guard = await load();
    const edge = REQUEST_CLOCK_WINDOW_MS;
    expect(await guard.admit("settings-request", stamp(-edge - 1))).toBe("stale");
    expect(await guard.admit("settings-request", stamp(edge + 1))).toBe("future");
    expect(await guard.admit("settings-request", stamp(-edge))).toBe("accepted");
    expect(await guard.admit("settings-request", stamp(edge))).toBe("accepted");
    expect(await guard.admit("reply", stamp(-REPLY_EXPIRY_MS))).toBe("accepted");
    expect(await guard.admit("reply", stamp(-REPLY_EXPIRY_MS - edge - 1))).toBe("stale");
    expect(await guard.admit("reply", stamp(edge + 1))).toBe("future");
  });

  it("keeps what it took on disk (mode 600) for the next start, and forgets a nonce once its window has passed", async () => {
    const request = stamp();
    expect(await (await load()).admit("settings-request", request)).toBe("accepted");
    expect((await stat(join(directory.path, SEEN_REQUESTS_FILE))).mode & 0o777).toBe(0o600);
    expect(await (await load()).admit("settings-request", request)).toBe("replayed");

    now = new Date(now.getTime() + REQUEST_CLOCK_WINDOW_MS + MINUTE_MS);
    const later = await load();
    expect(await later.admit("settings-request", request)).toBe("stale");
    expect(await later.admit("settings-request", stamp())).toBe("accepted");
    expect(Object.keys((await file()).seen)).not.toContain(request.nonce);
  });

  it("replaces an unreadable file by one that refuses whatever was sealed before it could be replaced", async () => {
    await writeFile(join(directory.path, SEEN_REQUESTS_FILE), "{ not json", { mode: 0o600 });
    const guard = await load();
    expect(logLines.join("\n")).toMatch(/could not be read .* are refused/);
    expect(await readFile(join(directory.path, `${SEEN_REQUESTS_FILE}.unreadable`), "utf8")).toBe(
      "{ not json",
    );
    expect(await guard.admit("settings-request", stamp(-MINUTE_MS))).toBe("stale");
    expect(await guard.admit("settings-request", stamp(REQUEST_CLOCK_WINDOW_MS - 1))).toBe("stale");
    // A restart keeps the rule; once the clock window has passed, new requests are taken again.
    now = new Date(now.getTime() + REQUEST_CLOCK_WINDOW_MS + 1);
    expect(await (await load()).admit("settings-request", stamp())).toBe("accepted");
  });

  it("refuses a request when it holds as many nonces as it may, rather than forget one early", async () => {
    const guard = await load({ maxNonces: 2 });
    expect(await guard.admit("settings-request", stamp())).toBe("accepted");
    expect(await guard.admit("settings-request", stamp())).toBe("accepted");
    expect(await guard.admit("settings-request", stamp())).toBe("full");
  });

  it("does not take a request whose nonce could not be written: the same request is taken once the disk is back", async () => {
    const guard = await load();
    const blocker = join(directory.path, `${SEEN_REQUESTS_FILE}.tmp`);
    await mkdir(blocker);
    const request = stamp();
    await expect(guard.admit("settings-request", request)).rejects.toMatchObject({ code: "EISDIR" });
    await rmdir(blocker);
    expect(await guard.admit("settings-request", request)).toBe("accepted");
  });
});
