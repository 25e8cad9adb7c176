import { RELAY_SSE_EVENTS } from "@ringback/protocol";
import { expect, it } from "vitest";
import { eventBody } from "./support/in-process-relay.js";
import { type PostgresRelays, startPostgresRelays } from "./support/postgres-relays.js";
import { describePostgres } from "./support/postgres-schema.js";
import { readBacklog } from "./support/sse-backlog.js";
import { SseClient } from "./support/sse-client.js";

describePostgres("delivery outcomes across relay instances on one PostgreSQL database", () => {
  it("sends a delivery reported on instance B to a stream held on instance A, once, and replays it on B", async () => {
    await using relays = await startPostgresRelays(2);
    const [a, b] = relays.instances as [PostgresRelays["instances"][0], PostgresRelays["instances"][0]];
    const computer = await relays.signUp("computer");
    const phone = await relays.pair(computer.deviceToken, "phone");
    const browser = await relays.pair(computer.deviceToken, "browser");
    using browserStream = new SseClient(a.url, browser.deviceToken);
    await browserStream.waitForSynced();
    await a.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
    await browserStream.waitFor(RELAY_SSE_EVENTS.call);

    const report = (via: typeof a, outcome: string) =>
      via.request("POST", "/v1/calls/ev1/deliveries", { token: phone.deviceToken, body: { outcome } });
    const shown = await report(b, "shown");
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      seq: 2,
      deviceId: phone.deviceId,
      deviceName: "my phone",
      outcome: "shown",
    });
    const received = await browserStream.waitFor(RELAY_SSE_EVENTS.callDelivery);
    expect(received).toEqual({ type: "call-delivery", id: "2", data: shown.body });

    expect((await report(a, "shown")).body).toEqual(shown.body);
    // The same report through both instances at once: one record, one seq, the same answer to both.
    const [opened, openedToo] = await Promise.all([report(a, "opened"), report(b, "opened")]);
    expect(opened?.body).toMatchObject({ seq: 3, outcome: "opened" });
    expect(openedToo?.body).toEqual(opened?.body);
    await browserStream.waitFor(RELAY_SSE_EVENTS.callDelivery, (data) => data.outcome === "opened");
    expect(browserStream.of(RELAY_SSE_EVENTS.callDelivery).map((event) => event.id)).toEqual(["2", "3"]);

    const resumed = await readBacklog(b.url, browser.deviceToken, 1);
    expect(resumed.map((event) => [event.id, event.type, event.data])).toEqual([
      ["2", "call-delivery", shown.body],
      ["3", "call-delivery", opened?.body],
      ["3", "synced", { seq: 3 }],
    ]);
  });
});
