import { connect, type Socket } from "node:net";
import { RELAY_EVENT_BODY_MAX_BYTES } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { DEFAULT_RELAY_CONFIG } from "../src/relay-config.js";
import { ChildRelay } from "./support/child-relay.js";
import { DaemonClient } from "./support/daemon-client.js";
import { eventBody, pair, requestAt, signUp } from "./support/in-process-relay.js";
import { socketRelay } from "./support/socket-relay.js";

const MIB = 1024 * 1024;

/**
 * A request whose body is declared in full and sent only in part (the rest never comes): the relay either answers
 * before reading the body, or holds the request open waiting for it. Resolves with the status line once the relay
 * answers; `socket` is left open, holding whatever the relay set aside for it.
 */
function partialPost(
  url: string,
  path: string,
  headers: Record<string, string>,
  declaredBytes: number,
): { answer: Promise<string>; socket: Socket } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const answer = new Promise<string>((resolve, reject) => {
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const line = received.split("\r\n")[0];
      if (line && received.includes("\r\n")) resolve(line);
    });
    socket.on("error", reject);
  });
  const head = Object.entries({ ...headers, "Content-Length": String(declaredBytes) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n${head}\r\n`,
  );
  socket.write(`{"requestId":"r1","sealed":"${"x".repeat(1024)}`);
  return { answer, socket };
}

/** A body the relay keeps reading, in flight until the test ends it. */
function inFlight(url: string, path: string, token: string, address: string) {
  return partialPost(url, path, { Authorization: `Bearer ${token}`, "X-Forwarded-For": address }, 4 * MIB);
}

describe("exhausting the relay process's memory and disk with one token", () => {
  it("refuses a settings body for no computer before reading it, and holds only so many bodies at once", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({
      dataDir: data.path,
      args: ["--open-signup", "--behind-proxy"],
    });
    const request = requestAt(relay.url);
    const computer = await signUp(request, "computer");
    const phones = [
      await pair(request, computer.deviceToken, "phone"),
      await pair(request, computer.deviceToken, "phone"),
      await pair(request, computer.deviceToken, "browser"),
    ];
    const [phone, second, third] = phones;
    if (!phone || !second || !third) throw new Error("three devices expected");
    const sockets: Socket[] = [];
    try {
      // A 4 MiB body for a computer that is not there: answered 404 with the body still on its way.
      const bogus = inFlight(relay.url, "/v1/devices/dev_nobody/settings", phone.deviceToken, "203.0.113.1");
      sockets.push(bogus.socket);
      expect(await bogus.answer).toBe("HTTP/1.1 404 Not Found");

      // The real computer: each device may have two 4 MiB bodies in flight. Three at once from one device: one of
      // them (whichever comes last) is refused unread, the other two stay in, waiting for the bodies.
      const settingsPath = `/v1/devices/${computer.deviceId}/settings`;
      const fromPhone = [1, 2, 3].map(() =>
        inFlight(relay.url, settingsPath, phone.deviceToken, "203.0.113.2"),
      );
      sockets.push(...fromPhone.map((post) => post.socket));
      expect(await Promise.race(fromPhone.map((post) => post.answer))).toBe(
        "HTTP/1.1 503 Service Unavailable",
      );
      // One address: 16 MiB at once, whichever devices they come from: two more fit, a third is refused.
      const more = [
        inFlight(relay.url, settingsPath, second.deviceToken, "203.0.113.2"),
        inFlight(relay.url, settingsPath, second.deviceToken, "203.0.113.2"),
        inFlight(relay.url, settingsPath, third.deviceToken, "203.0.113.2"),
      ];
      sockets.push(...more.map((post) => post.socket));
      expect(await Promise.race(more.map((post) => post.answer))).toBe("HTTP/1.1 503 Service Unavailable");
      // Another address still gets in.
      const elsewhere = await request("POST", settingsPath, {
        token: third.deviceToken,
        headers: { "X-Forwarded-For": "203.0.113.3" },
        body: { requestId: "r9", sealed: "e2e1.0123456789abcdef.aXY.sealed" },
      });
      expect(elsewhere.status).toBe(503);
      expect(elsewhere.body.error.code).toBe("computer_offline");
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it("takes reports from computers only", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path, args: ["--open-signup"] });
    const request = requestAt(relay.url);
    const computer = await signUp(request, "computer");
    const phone = await pair(request, computer.deviceToken, "phone");
    const fromPhone = await request("POST", "/v1/daemon/events", {
      token: phone.deviceToken,
      body: eventBody("p1"),
    });
    expect(fromPhone.status).toBe(403);
    expect(fromPhone.body.error.code).toBe("computer_only");
  });

  it("refuses writes early when the disk runs low, and says so in its health", async () => {
    await using data = await makeTemporaryDirectory();
    // A floor above any disk's free space: the relay starts low.
    await using relay = await ChildRelay.start({
      dataDir: data.path,
      args: ["--open-signup", "--disk-free-min-mb", String(1024 * 1024 * 1024)],
    });
    const request = requestAt(relay.url);
    const health = await request("GET", "/v1/health");
    expect(health.body.disk).toMatchObject({ isLow: true });
    expect(health.body.disk.freeBytes).toBeGreaterThan(0);
    const refused = await request("POST", "/v1/accounts", {
      body: { deviceName: "pc", deviceKind: "computer" },
    });
    expect(refused.status).toBe(507);
    expect(refused.body.error.code).toBe("storage_full");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

describe("an account's quota of stored reports (relay on a socket, small quotas)", () => {
  it("refuses a report past the account's open calls or bytes with 507, until calls end", async () => {
    await using relay = await socketRelay({ openCallsPerAccountMax: 3, sealedBytesPerAccountMax: 3 * MIB });
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const post = (eventId: string, size = 100) =>
      relay.request("POST", "/v1/daemon/events", {
        token: computer.deviceToken,
        body: eventBody(eventId, { sealed: `e2e1.0123456789abcdef.aXY.${"x".repeat(size)}` }),
      });
    // Bytes: two 1.4 MiB reports fit in 3 MiB, a third does not.
    const big = Math.floor(1.4 * MIB);
    expect(big).toBeLessThan(RELAY_EVENT_BODY_MAX_BYTES);
    expect((await post("big1", big)).status).toBe(201);
    expect((await post("big2", big)).status).toBe(201);
    const overBytes = await post("big3", big);
    expect(overBytes.status).toBe(507);
    expect(overBytes.body.error.code).toBe("storage_full");
    // Calls: the third open call fits, a fourth does not.
    expect((await post("small1")).status).toBe(201);
    expect((await post("small2")).status).toBe(507);
    // Ending a call frees its share.
    const ended = await relay.request("POST", "/v1/calls/big1/status", {
      token: phone.deviceToken,
      body: { status: "rejected" },
    });
    expect(ended.status).toBe(200);
    expect((await post("small2")).status).toBe(201);
  });

  it("stores no more than the quota of reports posted at once: the check is in the insert's transaction", async () => {
    await using relay = await socketRelay({ openCallsPerAccountMax: 5, sealedBytesPerAccountMax: 3 * MIB });
    const computer = await relay.signUp("computer");
    const posts = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        relay.request("POST", "/v1/daemon/events", {
          token: computer.deviceToken,
          body: eventBody(`burst${index}`, { sealed: "e2e1.0123456789abcdef.aXY.burst" }),
        }),
      ),
    );
    expect(posts.filter((post) => post.status === 201)).toHaveLength(5);
    const refused = posts.filter((post) => post.status === 507);
    expect(refused).toHaveLength(15);
    expect(refused.every((post) => post.body.error.code === "storage_full")).toBe(true);
  });
});

/** The relay's queue of replies per account (README "Abuse limits"), which the process test fills. */
const QUEUED_REPLIES_PER_ACCOUNT = 500;

/** Replies from `token` to call `eventId`, each sealed as `e2e1.…<filler>` so its size can be chosen. */
function replyPoster(request: ReturnType<typeof requestAt>, token: string, eventId: string) {
  return (replyId: string, size = 16) =>
    request("POST", `/v1/calls/${eventId}/replies`, {
      token,
      body: { replyId, sealed: `e2e1.0123456789abcdef.aXY.${"x".repeat(size)}` },
    });
}

describe("an account's quota of queued replies", () => {
  it("refuses replies for an offline computer past the account's queue with 507, stores none, and frees a share when one settles (relay process)", async () => {
    expect(DEFAULT_RELAY_CONFIG.queuedRepliesPerAccountMax).toBe(QUEUED_REPLIES_PER_ACCOUNT);
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path, args: ["--open-signup"] });
    const request = requestAt(relay.url);
    const computer = await signUp(request, "computer");
    const phone = await pair(request, computer.deviceToken, "phone");
    const posted = await request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("ev1"),
    });
    expect(posted.status).toBe(201);
    const reply = replyPoster(request, phone.deviceToken, "ev1");
    // The computer is offline: every reply stays queued. All but the last ten places, 25 posts at a time.
    const filled = QUEUED_REPLIES_PER_ACCOUNT - 10;
    for (let start = 0; start < filled; start += 25) {
      const batch = Array.from({ length: Math.min(25, filled - start) }, (_, k) => reply(`r${start + k}`));
      for (const answer of await Promise.all(batch)) expect(answer.status).toBe(202);
    }
    // Twenty at once for the last ten places: ten are queued, ten refused, none beyond the quota.
    const raced = await Promise.all(Array.from({ length: 20 }, (_, k) => reply(`race${k}`)));
    const statuses = raced.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(10);
    expect(statuses.filter((status) => status === 507)).toHaveLength(10);
    const refused = raced.find((answer) => answer.status === 507);
    expect(refused?.body.error.code).toBe("storage_full");
    expect(Number(refused?.headers.get("Retry-After"))).toBeGreaterThan(0);
    const refusedIds = raced.flatMap((answer, k) => (answer.status === 507 ? [`race${k}`] : []));
    // Full: a new reply is refused, a repeat of a queued one is still answered as one.
    expect((await reply("more")).status).toBe(507);
    expect((await reply("r0")).status).toBe(202);

    // The computer comes online: it is sent every queued reply, and not one of the refused.
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    await eventually(
      () =>
        daemon.received.filter((message) => message.type === "reply").length >= QUEUED_REPLIES_PER_ACCOUNT,
      {
        what: "the queued replies on the link",
      },
    );
    const sent = daemon.received.flatMap((message) => (message.type === "reply" ? [message.replyId] : []));
    expect(new Set(sent).size).toBe(QUEUED_REPLIES_PER_ACCOUNT);
    expect(sent.filter((replyId) => refusedIds.includes(replyId) || replyId === "more")).toEqual([]);
    // One settles (delivered): its place is free again.
    daemon.send({ type: "reply-status", replyId: "r0", status: "delivered" });
    await eventually(async () => (await reply("more")).status === 202, { what: "a freed place" });
    expect((await reply("one-more")).status).toBe(507);
  });

  it("counts queued replies' bytes against the account's sealed bytes, frees them when replies fail or expire (relay on a socket, small quotas)", async () => {
    await using relay = await socketRelay({ queuedRepliesPerAccountMax: 3, sealedBytesPerAccountMax: MIB });
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const report = (eventId: string, size: number) =>
      relay.request("POST", "/v1/daemon/events", {
        token: computer.deviceToken,
        body: eventBody(eventId, { sealed: `e2e1.0123456789abcdef.aXY.${"x".repeat(size)}` }),
      });
    const reply = replyPoster(relay.request, phone.deviceToken, "ev1");
    const KIB = 1024;
    expect((await report("ev1", 600 * KIB)).status).toBe(201);
    // Bytes, the call's and the replies' together: 600 + 200 KiB fit in 1 MiB, 250 KiB more do not...
    expect((await reply("a", 200 * KIB)).status).toBe(202);
    const overBytes = await reply("b", 250 * KIB);
    expect(overBytes.status).toBe(507);
    expect(overBytes.body.error.code).toBe("storage_full");
    // ...and a report of that size is refused too: the replies use the account's bytes.
    expect((await report("ev2", 250 * KIB)).status).toBe(507);
    // Count: the third queued reply fits, a fourth does not.
    expect((await reply("c")).status).toBe(202);
    expect((await reply("d")).status).toBe(202);
    expect((await reply("e")).status).toBe(507);
    // A reply the computer fails frees its share.
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    await daemon.waitFor("reply", (message) => message.replyId === "d");
    daemon.send({
      type: "reply-status",
      replyId: "a",
      status: "failed",
      plaintextReason: "cannot decrypt reply",
    });
    await eventually(async () => (await reply("e")).status === 202, { what: "a place freed by a failure" });
    expect((await reply("f")).status).toBe(507);
    await daemon[Symbol.asyncDispose]();
    // Replies nobody picked up expire after a day: their places are free again at once.
    relay.clock.advance(24 * 60 * 60 * 1000);
    expect((await reply("b", 250 * KIB)).status).toBe(202);
    expect((await reply("f")).status).toBe(202);
  });
});

describe("a computer's rate of reports, and a disk running low (relay on a socket)", () => {
  it("takes only so many reports per computer in a window, then tells it when to try again", async () => {
    await using relay = await socketRelay({ eventsPerDeviceMax: 5 });
    const computer = await relay.signUp("computer");
    const other = await relay.pair(computer.deviceToken, "computer");
    const post = (token: string, eventId: string) =>
      relay.request("POST", "/v1/daemon/events", { token, body: eventBody(eventId) });
    for (let index = 0; index < 4; index++)
      expect((await post(computer.deviceToken, `ev${index}`)).status).toBe(201);
    // Repeats of stored reports do not count: the fifth new one is still taken.
    expect((await post(computer.deviceToken, "ev0")).status).toBe(200);
    expect((await post(computer.deviceToken, "ev4")).status).toBe(201);
    const refused = await post(computer.deviceToken, "ev5");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Per computer: the account's other computer still reports.
    expect((await post(other.deviceToken, "other1")).status).toBe(201);
    relay.clock.advance(10 * 60 * 1000);
    expect((await post(computer.deviceToken, "ev5")).status).toBe(201);
  });

  it("refuses what would store data while the disk is low, lets calls end, and takes writes again after", async () => {
    let freeBytes = 10 * 1024 * MIB;
    await using relay = await socketRelay({}, { diskFreeBytes: async () => freeBytes });
    const disk = relay.server.relay.runtime.disk;
    await disk.refresh();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const post = (eventId: string) =>
      relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody(eventId) });
    expect((await post("ev1")).status).toBe(201);
    freeBytes = 100 * MIB;
    await disk.refresh();
    expect((await relay.request("GET", "/v1/health")).body.disk).toEqual({
      freeBytes: 100 * MIB,
      isLow: true,
    });
    const refused = await post("ev2");
    expect(refused.status).toBe(507);
    expect(refused.body.error.code).toBe("storage_full");
    const reply = await relay.request("POST", "/v1/calls/ev1/replies", {
      token: phone.deviceToken,
      body: { replyId: "r1", sealed: "e2e1.0123456789abcdef.aXY.reply" },
    });
    expect(reply.status).toBe(507);
    // Ending a call only erases: it goes on.
    const ended = await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "rejected" },
    });
    expect(ended.status).toBe(200);
    freeBytes = 10 * 1024 * MIB;
    await disk.refresh();
    expect((await relay.request("GET", "/v1/health")).body.disk.isLow).toBe(false);
    expect((await post("ev2")).status).toBe(201);
    expect(relay.logs).toContainEqual(expect.stringMatching(/^disk space low: /));
  });
});
