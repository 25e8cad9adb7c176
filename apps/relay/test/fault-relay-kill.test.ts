import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Changes, eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";
import { eventBody, pair, requestAt, signUp } from "./support/in-process-relay.js";
import { SseClient } from "./support/sse-client.js";

const REPORTS = 1_000;
const KILLS = 5;
const POSTERS = 4;

/** `PRAGMA integrity_check` on the relay's database file, opened read-only while the relay is down. */
function integrityCheck(dataDir: string): string {
  const database = new DatabaseSync(join(dataDir, "relay.db"), { readOnly: true });
  try {
    return String(
      (database.prepare("PRAGMA integrity_check").get() as Record<string, unknown>).integrity_check,
    );
  } finally {
    database.close();
  }
}

describe("the relay (SQLite, the built bin) killed with SIGKILL while reports flow", () => {
  it(`delivers ${REPORTS} reports, posted straight to the daemon endpoint with retries, exactly once to each of 3 devices across ${KILLS} kills`, async () => {
    await using dir = await makeTemporaryDirectory();
    const args = ["--open-signup", "--sse-retry-ms", "100"];
    let relay = await ChildRelay.start({ dataDir: dir.path, args });
    const port = relay.port;
    const url = relay.url;
    const request = requestAt(url);
    const computer = await signUp(request, "computer");
    const devices = [
      await pair(request, computer.deviceToken, "phone"),
      await pair(request, computer.deviceToken, "browser"),
      await pair(request, computer.deviceToken, "phone"),
    ];
    const streams = devices.map((device) => new SseClient(url, device.deviceToken));
    try {
      await Promise.all(streams.map((stream) => stream.waitForSynced()));

      // The computer's side as its outbox behaves: a report is posted until the relay answers 201 (stored) or 200
      // (already stored); a refused connection or a cut answer is tried again.
      let next = 0;
      let accepted = 0;
      let retries = 0;
      const post = async (eventId: string) => {
        for (;;) {
          try {
            const answer = await request("POST", "/v1/daemon/events", {
              token: computer.deviceToken,
              body: eventBody(eventId),
            });
            if (answer.status === 201 || answer.status === 200) return;
            retries++;
          } catch {
            retries++;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const progress = new Changes();
      const posters = Array.from({ length: POSTERS }, async () => {
        while (next < REPORTS) {
          const eventId = `evt_${String(next++).padStart(4, "0")}`;
          await post(eventId);
          accepted++;
          progress.notify();
        }
      });

      const checks: string[] = [];
      for (let kill = 1; kill <= KILLS; kill++) {
        const due = (kill * REPORTS) / (KILLS + 1);
        // A bound for a busy machine (a relay restarting between kills), not a speed check.
        await eventually(() => accepted >= due, {
          what: `${due} reports accepted`,
          on: progress,
          checks: 3_000,
        });
        await relay.stop("SIGKILL");
        checks.push(integrityCheck(dir.path));
        relay = await ChildRelay.start({ dataDir: dir.path, port, args });
      }
      await Promise.all(posters);
      expect(checks).toEqual(Array(KILLS).fill("ok"));

      // One more call, posted once every other post was answered: a stream delivers calls in the order the relay
      // stored them, so a stream that has this one has everything stored before it, a double included.
      const last = `evt_${String(REPORTS).padStart(4, "0")}`;
      await post(last);
      for (const stream of streams) {
        await stream.waitFor("call", (data) => data.eventId === last, 30_000);
        const ids = stream
          .of("call")
          .map((event) => event.data.eventId as string)
          .filter((eventId) => eventId !== last);
        expect(ids.length, "calls received (a double would show here)").toBe(REPORTS);
        expect(new Set(ids).size).toBe(REPORTS);
        expect(stream.opens).toBeGreaterThan(KILLS);
      }
      console.log(
        `relay kill test: ${REPORTS} reports, ${KILLS} SIGKILLs, ${retries} retried posts, 3 devices × ${REPORTS} calls, each once; integrity_check ok ×${KILLS}`,
      );
      expect(integrityCheck(dir.path)).toBe("ok");
    } finally {
      for (const stream of streams) stream[Symbol.dispose]();
      await relay.stop("SIGKILL");
    }
  }, 180_000);
});
