import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";
import { eventBody, pair, requestAt, signUp } from "./support/in-process-relay.js";
import { SseClient } from "./support/sse-client.js";

const SEQUENCED = new Set(["call", "call-status", "reply-status"]);

describe("relay restart (the built bin as a child process)", () => {
  it("resumes every stream by Last-Event-ID after a crash, with nothing lost or doubled", async () => {
    await using dir = await makeTemporaryDirectory();
    // A retry hint longer than the restart: the events below are posted before the streams come back, so they
    // arrive by the Last-Event-ID replay.
    const args = ["--open-signup", "--sse-retry-ms", "1000"];
    let relay = await ChildRelay.start({ dataDir: dir.path, args });
    try {
      const port = relay.port;
      const url = relay.url;
      const request = requestAt(url);
      const computer = await signUp(request, "computer");
      const phone = await pair(request, computer.deviceToken, "phone");
      const browser = await pair(request, computer.deviceToken, "browser");
      const post = (eventId: string) =>
        request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody(eventId) });

      using phoneStream = new SseClient(url, phone.deviceToken);
      using browserStream = new SseClient(url, browser.deviceToken);
      await Promise.all([phoneStream.waitForSynced(), browserStream.waitForSynced()]);
      await post("ev1");
      await post("ev2");
      for (const stream of [phoneStream, browserStream])
        await stream.waitFor("call", (d) => d.eventId === "ev2");

      await relay.stop("SIGKILL");
      relay = await ChildRelay.start({ dataDir: dir.path, port, args });
      expect((await post("ev3")).status).toBe(201);
      expect((await post("ev1")).body).toEqual({ eventId: "ev1", seq: 1 });
      const answer = await request("POST", "/v1/calls/ev1/status", {
        token: phone.deviceToken,
        body: { status: "answered" },
      });
      expect(answer.status).toBe(200);
      await post("ev4");

      for (const stream of [phoneStream, browserStream]) {
        await stream.waitFor("call", (d) => d.eventId === "ev4");
        const sequenced = stream.events.filter((event) => SEQUENCED.has(event.type));
        expect(sequenced.map((event) => Number(event.id))).toEqual([1, 2, 3, 4, 5]);
        expect(sequenced.map((event) => [event.type, event.data.eventId])).toEqual([
          ["call", "ev1"],
          ["call", "ev2"],
          ["call", "ev3"],
          ["call-status", "ev1"],
          ["call", "ev4"],
        ]);
        expect(stream.opens).toBe(2);
      }
    } finally {
      await relay.stop("SIGKILL");
    }
  });

  it("prints a claim code only while unclaimed, and never again", async () => {
    await using dir = await makeTemporaryDirectory();
    const first = await ChildRelay.start({ dataDir: dir.path });
    const claimCode = first.claimCode;
    expect(claimCode).toMatch(/^\d{3}-\d{3}-\d{3}$/);
    const request = requestAt(first.url);
    const created = await signUp(request, "computer", claimCode ?? undefined);
    expect(created.accountId).toMatch(/^acc_/);
    expect((await first.stop("SIGTERM")).code).toBe(0);
    await using second = await ChildRelay.start({ dataDir: dir.path });
    expect(second.claimCode).toBeNull();
    expect(first.stderr.split(claimCode ?? "-").length).toBe(2);
  });
});
