import { createECDH, randomBytes, randomInt } from "node:crypto";
import type { LookupAddress } from "node:dns";
import { createServer, type Socket } from "node:net";
import { eventually } from "@ringback/test-kit";
import { describe, expect, it, type TestContext } from "vitest";
import { isPublicAddress } from "../src/runtime/network-address.js";
import { eventBody } from "./support/in-process-relay.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";

const HOUR_MS = 60 * 60 * 1000;

/**
 * "Something inside the relay's network": a TCP listener on port 443 of a loopback address of its own (127.x.y.z),
 * counting the connections it gets. Port 443 is what a push to a name without a port reaches, and binding it takes
 * root (CI runs as root); elsewhere the test that needs it (`context`) says it skipped and why, and skips.
 */
async function internalService(
  context: TestContext,
): Promise<AsyncDisposable & { address: string; connections: number }> {
  const address = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
  const sockets = new Set<Socket>();
  const service = { address, connections: 0 };
  const server = createServer((socket) => {
    service.connections++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(443, address, resolve);
    });
  } catch (error) {
    const reason = `cannot listen on ${address}:443 (${(error as NodeJS.ErrnoException).code}): run as root`;
    if (process.env.CI) throw new Error(`${reason}; CI runs as root and must run this test`);
    console.log(`skipped: ${reason}`);
    return context.skip();
  }
  return Object.assign(service, {
    async [Symbol.asyncDispose]() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

/** Keys a browser would give with its subscription (a P-256 point and an auth secret). */
function browserKeys() {
  const ecdh = createECDH("prime256v1");
  return { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

async function phoneOf(relay: SocketRelay) {
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  return { computer, phone };
}

async function ring(relay: SocketRelay, token: string, eventId: string) {
  const posted = await relay.request("POST", "/v1/daemon/events", { token, body: eventBody(eventId) });
  expect(posted.status).toBe(201);
  await relay.server.relay.pushDue();
}

describe("push endpoints cannot point into the relay's own network", () => {
  it("refuses endpoints a push service's name hides an address in, ports, users, IP literals and non-canonical text", async () => {
    // The default push services, as a relay runs unless told otherwise.
    await using relay = await socketRelay({ pushPollMs: HOUR_MS });
    const { phone } = await phoneOf(relay);
    const subscribe = (endpoint: string) =>
      relay.request("PUT", "/v1/push/subscription", {
        token: phone.deviceToken,
        body: { endpoint, keys: browserKeys(), expirationTime: null },
      });
    const refused = [
      // The URL parser reads a subdomain of fcm.googleapis.com; Node's legacy url.parse, which the push library
      // connected with, reads 127.0.0.1 (port 443).
      "https://127.0.0.1;.fcm.googleapis.com/fcm/send/abc",
      "https://127.0.0.1{.fcm.googleapis.com/fcm/send/abc",
      "https://10.0.0.1'.fcm.googleapis.com/fcm/send/abc",
      // A push service's name with a port of the attacker's choosing.
      "https://fcm.googleapis.com:8443/fcm/send/abc",
      "https://updates.push.services.mozilla.com:22/wpush/v2/abc",
      "https://user:secret@fcm.googleapis.com/fcm/send/abc",
      // Addresses are never push services; nor is text another parser may read differently.
      "https://127.0.0.1/fcm/send/abc",
      "https://[::1]/fcm/send/abc",
      "https://169.254.169.254/latest/meta-data",
      "https://FCM.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com/fcm/send/a b",
      "https://fcm.googleapis.com./fcm/send/abc",
    ];
    const answers = [];
    for (const endpoint of refused) {
      const answer = await subscribe(endpoint);
      answers.push({ endpoint, status: answer.status, code: answer.body?.error?.code });
    }
    expect(answers).toEqual(refused.map((endpoint) => ({ endpoint, status: 400, code: "invalid_request" })));
    expect(
      (await relay.request("GET", "/v1/push/subscription", { token: phone.deviceToken })).body.subscribed,
    ).toBe(false);
    // A push service's own endpoint is still welcome.
    const real = await subscribe(
      "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
    );
    expect(real.status).toBe(200);
  });

  it("never connects for an endpoint stored before these rules, and removes it", async (context) => {
    await using service = await internalService(context);
    await using relay = await socketRelay({ pushPollMs: HOUR_MS });
    const { computer, phone } = await phoneOf(relay);
    // What the old check let in (the registration's rules are above): written as the store kept it.
    const endpoint = `https://${service.address};.fcm.googleapis.com/fcm/send/abc`;
    await relay.store.setPushSubscription({
      deviceId: phone.deviceId,
      accountId: phone.accountId,
      endpoint,
      ...browserKeys(),
      repeatSeconds: 60,
      now: relay.clock.now(),
    });
    await ring(relay, computer.deviceToken, "ev1");
    // The push is done once the relay says what became of it, or once the listener was reached.
    const refusal = new RegExp(
      `^push subscription refused event=ev1 device=${phone.deviceId} .*\\(removed\\)$`,
    );
    await eventually(() => service.connections > 0 || relay.logs.some((line) => refusal.test(line)), {
      what: "the push to be refused or sent",
    });
    expect(service.connections).toBe(0);
    expect(relay.logs).toContainEqual(expect.stringMatching(refusal));
    expect(await relay.store.findPushSubscription(phone.deviceId)).toBeNull();
    // Nothing is left to try again: no oracle of repeated requests.
    relay.clock.advance(2 * 60_000);
    await ring(relay, computer.deviceToken, "ev2");
    expect(service.connections).toBe(0);
  });

  it("connects only to public addresses, checked as it connects: a name that resolves or rebinds inside gets nothing", async (context) => {
    await using service = await internalService(context);
    // The resolver is the test's: the push service's name resolves to the listener's loopback address (as a name
    // that once resolved outside and now rebinds inside would).
    const asked: string[] = [];
    const resolveAll = async (hostname: string): Promise<LookupAddress[]> => {
      asked.push(hostname);
      return [{ address: service.address, family: 4 }];
    };
    await using relay = await socketRelay(
      { pushPollMs: HOUR_MS, pushHosts: ["push.test"] },
      { pushResolveAll: resolveAll },
    );
    const { computer, phone } = await phoneOf(relay);
    const subscribed = await relay.request("PUT", "/v1/push/subscription", {
      token: phone.deviceToken,
      body: { endpoint: "https://web.push.test/send/abc", keys: browserKeys(), expirationTime: null },
    });
    expect(subscribed.status).toBe(200);
    // Registration resolves nothing: the address that counts is the one at connection time.
    expect(asked).toEqual([]);
    await ring(relay, computer.deviceToken, "ev1");
    const refusal = /^push subscription refused event=ev1 .*private network.*\(removed\)$/;
    await eventually(() => service.connections > 0 || relay.logs.some((line) => refusal.test(line)), {
      what: "the push to be refused or sent",
    });
    expect(asked).toContain("web.push.test");
    expect(service.connections).toBe(0);
    expect(relay.logs).toContainEqual(expect.stringMatching(refusal));
    expect(await relay.store.findPushSubscription(phone.deviceId)).toBeNull();
  });
});

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local, shared, metadata and other special ranges, in IPv4 and IPv6", () => {
    const internal = [
      "127.0.0.1",
      "127.45.6.7",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.100.100.200",
      "168.63.129.16",
      "0.0.0.0",
      "192.0.0.170",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fd00:ec2::254",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a9fe:a9fe",
      "2002:c0a8:0101::1",
      "2001:db8::1",
      "::127.0.0.1",
      "not an address",
    ];
    expect(internal.filter(isPublicAddress)).toEqual([]);
    const external = [
      "8.8.8.8",
      "142.250.74.106",
      "172.32.0.1",
      "100.128.0.1",
      "2a00:1450:4001:82a::200a",
      "64:ff9b::808:808",
    ];
    expect(external.filter((address) => !isPublicAddress(address))).toEqual([]);
  });
});
