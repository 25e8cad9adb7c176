import { Changes, eventually } from "@ringback/test-kit";
import { expect, it } from "vitest";
import { eventBody } from "./support/in-process-relay.js";
import { type PostgresRelays, startPostgresRelays } from "./support/postgres-relays.js";
import { describePostgres } from "./support/postgres-schema.js";
import { startPostgresServer } from "./support/postgres-server.js";
import { SseClient } from "./support/sse-client.js";

const REPORTS = 300;

describePostgres("PostgreSQL restarted under load behind two relay instances", () => {
  it(`delivers ${REPORTS} reports posted to both instances exactly once to each device, across a restart`, async () => {
    // A server of this test's own: restarting the shared one would cut every other suite's connections.
    const server = await startPostgresServer();
    let relays: PostgresRelays | null = null;
    const streams: SseClient[] = [];
    try {
      relays = await startPostgresRelays(2, {}, { databaseUrl: server.url });
      const [a, b] = relays.instances as [PostgresRelays["instances"][0], PostgresRelays["instances"][0]];
      const computer = await relays.signUp("computer");
      const devices = [
        await relays.pair(computer.deviceToken, "phone"),
        await relays.pair(computer.deviceToken, "browser"),
        await relays.pair(computer.deviceToken, "phone"),
      ];
      // Two devices on instance a, one on b: every post on either reaches all three through LISTEN/NOTIFY. The
      // streams start over after a refusal as the companion's stream does (an EventSource alone gives up on a 5xx).
      streams.push(
        new SseClient(a.url, devices[0]?.deviceToken ?? "", { isPersistent: true }),
        new SseClient(a.url, devices[1]?.deviceToken ?? "", { isPersistent: true }),
        new SseClient(b.url, devices[2]?.deviceToken ?? "", { isPersistent: true }),
      );
      await Promise.all(streams.map((stream) => stream.waitForSynced()));

      let retries = 0;
      const refusals = new Set<string>();
      const post = async (index: number) => {
        const via = index % 2 === 0 ? a : b;
        const eventId = `evt_${String(index).padStart(4, "0")}`;
        for (;;) {
          const answer = await via
            .request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody(eventId) })
            .catch(() => null);
          if (answer && (answer.status === 201 || answer.status === 200)) return;
          if (answer) refusals.add(`${answer.status} ${answer.body?.error?.code}`);
          retries++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      let next = 0;
      const progress = new Changes();
      const posters = Array.from({ length: 3 }, async () => {
        while (next < REPORTS) {
          await post(next++);
          progress.notify();
        }
      });
      // A bound for a busy machine, not a speed check.
      await eventually(() => next >= REPORTS / 3, {
        what: "a third of the reports posted",
        on: progress,
        checks: 3_000,
      });
      await server.restart();
      await Promise.all(posters);

      const last = `evt_${String(REPORTS - 1).padStart(4, "0")}`;
      for (const stream of streams) {
        for (let index = 0; index < REPORTS; index++) {
          const eventId = `evt_${String(index).padStart(4, "0")}`;
          await stream.waitFor("call", (data) => data.eventId === eventId, 1_500);
        }
        await stream.waitFor("call", (data) => data.eventId === last, 1_500);
        const ids = stream.of("call").map((event) => event.data.eventId as string);
        expect(new Set(ids).size).toBe(REPORTS);
        expect(ids.length, "no call twice").toBe(REPORTS);
      }
      // After the restart both instances still hear each other: one more post on b reaches a's streams.
      await post(REPORTS);
      await streams[0]?.waitFor(
        "call",
        (data) => data.eventId === `evt_${String(REPORTS).padStart(4, "0")}`,
        1_500,
      );
      // While the database restarts the relay says so, with a code a client retries on: never a bare 500.
      for (const refusal of refusals) expect(refusal).toBe("503 relay_unavailable");
      const reconnects = streams.reduce((sum, stream) => sum + stream.opens - 1, 0);
      console.log(
        `postgres restart test: ${REPORTS} reports over 2 instances, ${retries} retried posts, ${reconnects} stream resumes, refusals while it restarted: ${[...refusals].join(", ") || "none"}; 3 devices each got every call once`,
      );
    } finally {
      for (const stream of streams) stream[Symbol.dispose]();
      await relays?.[Symbol.asyncDispose]();
      await server.stop();
    }
  }, 120_000);
});
