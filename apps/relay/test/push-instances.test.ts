import { PushMessage } from "@ringback/protocol";
import { startTestPushService } from "@ringback/test-kit";
import { expect, it } from "vitest";
import { eventBody, pair, signUp } from "./support/in-process-relay.js";
import { startPostgresRelays } from "./support/postgres-relays.js";
import { describePostgres } from "./support/postgres-schema.js";

const HOUR_MS = 60 * 60 * 1000;

describePostgres("Web Push across relay instances on one PostgreSQL database", () => {
  it("shares one VAPID key, and pushes each call, each repeat and its settling once, whichever instance runs", async () => {
    await using pushService = await startTestPushService();
    await using relays = await startPostgresRelays(
      2,
      { pushPollMs: HOUR_MS, pushTrustedOrigins: [pushService.origin] },
      { pushAgent: pushService.agent },
    );
    const { instances, clock } = relays;
    const [first, second] = instances.map((instance) => instance.request);
    if (!first || !second) throw new Error("two instances expected");
    const keys = await Promise.all([first, second].map((request) => request("GET", "/v1/push/public-key")));
    expect(keys[0]?.body.publicKey).toBe(keys[1]?.body.publicKey);

    const computer = await signUp(first, "computer");
    const phone = await pair(first, computer.deviceToken, "phone");
    const subscription = pushService.subscribe(keys[0]?.body.publicKey);
    await first("PUT", "/v1/push/subscription", { token: phone.deviceToken, body: subscription });
    await second("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
    await pushService.waitFor(() => pushService.delivered(subscription.id)[0], "the first push");

    clock.advance(60_000);
    await Promise.all(instances.map(({ server }) => server.relay.pushDue()));
    await pushService.waitFor(
      () => (pushService.delivered(subscription.id).length === 2 ? true : undefined),
      "the repeat",
    );
    await Promise.all(instances.map(({ server }) => server.relay.pushDue()));
    const messages = () =>
      pushService.delivered(subscription.id).map((push) => PushMessage.parse(JSON.parse(push.payload ?? "")));
    expect(messages().map((message) => message.type === "call" && message.attempt)).toEqual([1, 2]);

    // Answered through the instance that did not send the pushes: it reads whom to tell from the store.
    const tablet = await pair(first, computer.deviceToken, "browser");
    const answered = await second("POST", "/v1/calls/ev1/status", {
      token: tablet.deviceToken,
      body: { status: "answered" },
    });
    expect(answered.status).toBe(200);
    await pushService.waitFor(
      () => (pushService.delivered(subscription.id).length === 3 ? true : undefined),
      "the settled push",
    );
    clock.advance(60_000);
    await Promise.all(instances.map(({ server }) => server.relay.pushDue()));
    expect(messages().slice(2)).toEqual([{ type: "call-settled", eventId: "ev1", status: "answered" }]);
  });
});
