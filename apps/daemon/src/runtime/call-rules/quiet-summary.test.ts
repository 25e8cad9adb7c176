import { createServer } from "node:http";
import {
  eventually,
  listenOnLoopback,
  makeTemporaryDirectory,
  type TemporaryDirectory,
} from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QuietCalls } from "./quiet-calls.js";
import { nextLocalTimeMs, QuietSummary } from "./quiet-summary.js";

let directory: TemporaryDirectory;

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
});

afterEach(async () => {
  vi.useRealTimers();
  await directory.remove();
});

/** The relay's two answers the summary asks for: a call's status, and the push again. */
async function startRelay(statuses: Record<string, "pending" | "answered">) {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const called = /^\/v1\/calls\/([\w-]+)$/.exec(request.url ?? "")?.[1];
    const status = called === undefined ? undefined : statuses[called];
    response.setHeader("content-type", "application/json");
    if (request.method === "POST" && /\/push$/.test(request.url ?? "")) {
      response.writeHead(202).end("{}");
    } else if (status) {
      response.writeHead(200).end(JSON.stringify({ eventId: called, status }));
    } else {
      response.writeHead(404).end(JSON.stringify({ error: { code: "not_found", message: "Not found." } }));
    }
  });
  const listening = await listenOnLoopback(server);
  return { url: listening.origin, requests, close: listening.close };
}

describe("nextLocalTimeMs", () => {
  it("is today's time when it is still to come, else tomorrow's, in the computer's local time", () => {
    const morning = new Date(2026, 11, 7, 6, 15).getTime();
    expect(nextLocalTimeMs("07:30", morning)).toBe(new Date(2026, 11, 7, 7, 30).getTime());
    expect(nextLocalTimeMs("06:15", morning)).toBe(new Date(2026, 11, 8, 6, 15).getTime());
    expect(nextLocalTimeMs("24:00", morning)).toBe(new Date(2026, 11, 8, 0, 0).getTime());
  });
});

describe("QuietSummary", () => {
  it("at its time pushes the newest quiet call still waiting again, and forgets the answered and the gone", async () => {
    const relay = await startRelay({ evt_docs: "pending", evt_search: "pending", evt_old: "answered" });
    const quietCalls = await QuietCalls.load(directory.path, () => undefined);
    quietCalls.remember("evt_gone", new Date(2026, 11, 6, 9, 0));
    quietCalls.remember("evt_old", new Date(2026, 11, 6, 10, 0));
    quietCalls.remember("evt_docs", new Date(2026, 11, 7, 11, 0));
    quietCalls.remember("evt_search", new Date(2026, 11, 7, 12, 0));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: new Date(2026, 11, 7, 17, 0) });
    const lines: string[] = [];
    const summary = new QuietSummary({
      quietCalls,
      summaryAt: () => "18:30",
      relay: () => ({ serverUrl: relay.url, deviceToken: "device-token" }),
      log: (line) => lines.push(line),
      now: () => Date.now(),
    });
    summary.arm();
    await vi.advanceTimersByTimeAsync(90 * 60_000 - 1);
    expect(relay.requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await eventually(() => relay.requests.some((request) => request.startsWith("POST")));
    expect(relay.requests).toEqual([
      "GET /v1/calls/evt_search",
      "GET /v1/calls/evt_docs",
      "GET /v1/calls/evt_old",
      "GET /v1/calls/evt_gone",
      "POST /v1/daemon/events/evt_search/push",
    ]);
    await eventually(() => lines.some((line) => line.includes("2 quiet call(s) waiting")));
    expect(quietCalls.newestFirst()).toEqual(["evt_search", "evt_docs"]);
    summary.stop();
    await quietCalls.flush();
    const reloaded = await QuietCalls.load(directory.path, () => undefined);
    expect(reloaded.newestFirst()).toEqual(["evt_search", "evt_docs"]);
    await relay.close();
  });

  it("rings nothing when no quiet call waits, and sets no timer when the rules set no time", async () => {
    const relay = await startRelay({ evt_docs: "answered" });
    const quietCalls = await QuietCalls.load(directory.path, () => undefined);
    quietCalls.remember("evt_docs", new Date());
    let summaryAt: string | null = null;
    const summary = new QuietSummary({
      quietCalls,
      summaryAt: () => summaryAt,
      relay: () => ({ serverUrl: relay.url, deviceToken: "device-token" }),
      log: () => undefined,
      now: () => Date.now(),
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    summary.arm();
    expect(vi.getTimerCount()).toBe(0);
    summaryAt = "08:00";
    summary.arm();
    expect(vi.getTimerCount()).toBe(1);
    vi.useRealTimers();
    expect(await summary.ring()).toEqual({ kind: "nothing-waiting" });
    expect(relay.requests).toEqual(["GET /v1/calls/evt_docs"]);
    summary.stop();
    await relay.close();
  });
});
