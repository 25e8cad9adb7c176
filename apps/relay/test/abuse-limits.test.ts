import { describe, expect, it } from "vitest";
import { SIGNUPS_PER_ADDRESS_MAX } from "../src/relay-config.js";
import { eventBody, inProcessRelay } from "./support/in-process-relay.js";
import { socketRelay } from "./support/socket-relay.js";

const from = (address: string) => ({ "X-Forwarded-For": address });

describe("abuse limits at the relay", () => {
  it("locks out an address that guesses pairing codes, while another address still pairs with its code", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const computer = await relay.signUp("computer");
    const code = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body
      .code;
    const guess = (digits: string, address: string) =>
      relay.request("POST", "/v1/pairing-codes/redeem", {
        headers: from(address),
        body: { code: digits, deviceName: "guesser", deviceKind: "phone" },
      });
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = String(100000 + attempt);
      expect((await guess(wrong === code ? "999999" : wrong, "203.0.113.7")).body.error.code).toBe(
        "invalid_pairing_code",
      );
    }
    const locked = await guess(code, "203.0.113.7");
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("rate_limited");
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // No global lock-out: the owner's phone, from another address, joins with the right code.
    const joined = await guess(code, "198.51.100.20");
    expect(joined.status).toBe(201);
    // The window ends: the locked address may try again.
    relay.clock.advance(10 * 60 * 1000 + 1);
    expect((await guess("123123", "203.0.113.7")).body.error.code).toBe("invalid_pairing_code");
  });

  it("burns no code however many addresses guess wrong: every live code still pairs its owner", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const computer = await relay.signUp("computer");
    const code = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body
      .code;
    const redeem = (digits: string, address: string) =>
      relay.request("POST", "/v1/pairing-codes/redeem", {
        headers: from(address),
        body: { code: digits, deviceName: "phone", deviceKind: "phone" },
      });
    // Ten addresses spend their whole allowance (100 wrong guesses, where 30 used to burn every live code).
    for (let address = 0; address < 10; address++)
      for (let attempt = 0; attempt < 10; attempt++)
        expect(
          (await redeem(`9${String(address * 10 + attempt).padStart(11, "0")}`, `203.0.113.${address}`))
            .status,
        ).toBe(422);
    expect((await redeem(code, "198.51.100.1")).status).toBe(201);
  });

  it("limits an IPv6 site by its /48, not by each of its 65,536 /64s", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const guess = (address: string) =>
      relay.request("POST", "/v1/pairing-codes/redeem", {
        headers: from(address),
        body: { code: "000000000000", deviceName: "guesser", deviceKind: "phone" },
      });
    // Three /64s of one /48 spend their allowance; a fourth /64 of the same /48 is refused at once.
    for (const subnet of ["1", "2", "3"])
      for (let attempt = 0; attempt < 10; attempt++)
        expect((await guess(`2001:db8:7:${subnet}::${attempt + 1}`)).status).toBe(422);
    const refused = await guess("2001:db8:7:4::1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another /48 is another site.
    expect((await guess("2001:db8:8:1::1")).status).toBe(422);
  });

  it("limits an address to 50 wrong codes a day, whatever the 10-minute windows", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const guess = () =>
      relay.request("POST", "/v1/pairing-codes/redeem", {
        headers: from("203.0.113.50"),
        body: { code: "000000000000", deviceName: "guesser", deviceKind: "phone" },
      });
    for (let window = 0; window < 5; window++) {
      for (let attempt = 0; attempt < 10; attempt++) expect((await guess()).status).toBe(422);
      relay.clock.advance(10 * 60 * 1000 + 1);
    }
    const refused = await guess();
    expect(refused.status).toBe(429);
    // Until the day's window ends.
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(20 * 60 * 60);
  });

  it("refuses a flood of sign-ups from one address (429), not sign-ups from others, and forgets it after the window", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const signUp = (address: string) =>
      relay.request("POST", "/v1/accounts", {
        headers: from(address),
        body: { deviceName: "flood", deviceKind: "computer" },
      });
    for (let count = 0; count < SIGNUPS_PER_ADDRESS_MAX; count++)
      expect((await signUp("203.0.113.9")).status).toBe(201);
    const refused = await signUp("203.0.113.9");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.body.error.message).toBe("Too many new accounts from this address; try again later.");
    expect((await signUp("198.51.100.21")).status).toBe(201);
    relay.clock.advance(60 * 60 * 1000 + 1);
    expect((await signUp("203.0.113.9")).status).toBe(201);
  });

  it("refuses oversized bodies with 413 and the envelope, before reading them whole", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    const huge = await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("evt_huge", { sealed: `e2e1.k.iv.${"x".repeat(2 * 1024 * 1024)}` }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe("payload_too_large");
    const account = await relay.request("POST", "/v1/accounts", {
      body: { deviceName: "x".repeat(100_000), deviceKind: "phone" },
    });
    expect(account.status).toBe(413);
    expect(account.body.error.code).toBe("payload_too_large");
  });

  it("keeps at most 4 streams per device: a fifth closes the oldest, other devices untouched", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const open = async (token: string) => {
      const response = await fetch(new URL("/v1/stream", relay.url), {
        headers: { authorization: `Bearer ${token}` },
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = "";
      while (!text.includes("event: synced")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended before synced");
        text += new TextDecoder().decode(value);
      }
      return reader;
    };
    const computerStream = await open(computer.deviceToken);
    const streams = [];
    for (let index = 0; index < 5; index++) streams.push(await open(phone.deviceToken));
    // The oldest of the phone's five ends; reading it finishes.
    const first = await streams[0]?.read();
    expect(first?.done).toBe(true);
    // A call posted now reaches every stream still open; a closed one ends instead.
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("evt_after_limit"),
    });
    const stillOpen = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
      let text = "";
      while (!text.includes("event: call")) {
        const { value, done } = await reader.read();
        if (done) return "ended";
        text += new TextDecoder().decode(value);
      }
      return "open";
    };
    for (const reader of [...streams.slice(1), computerStream]) expect(await stillOpen(reader)).toBe("open");
    expect(
      relay.logs.some((line) =>
        line.includes(`stream limit device=${phone.deviceId}: closed 1 older stream(s)`),
      ),
    ).toBe(true);
    for (const reader of [...streams, computerStream]) await reader.cancel();
  });
});
