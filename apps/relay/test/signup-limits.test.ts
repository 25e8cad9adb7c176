import { describe, expect, it } from "vitest";
import { SIGNUPS_PER_ADDRESS_MAX } from "../src/relay-config.js";
import { SIGNUPS_BLOCK_FACTOR, SIGNUPS_DAILY_FACTOR } from "../src/runtime/signup-limits.js";
import { socketRelay } from "./support/socket-relay.js";

const HOUR_MS = 60 * 60 * 1000;
const BLOCK_MAX = SIGNUPS_PER_ADDRESS_MAX * SIGNUPS_BLOCK_FACTOR;

type Relay = Awaited<ReturnType<typeof socketRelay>>;

/** `POST /v1/accounts` over the relay's socket, through a proxy that forwards for `address` when given. */
function signUpFrom(relay: Relay, address?: string) {
  return relay.request("POST", "/v1/accounts", {
    ...(address ? { headers: { "X-Forwarded-For": address } } : {}),
    body: { deviceName: "new", deviceKind: "computer" },
  });
}

async function expectRefused(relay: Relay, address: string | undefined, what: "address" | "network") {
  const refused = await signUpFrom(relay, address);
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe("rate_limited");
  expect(refused.body.error.message).toBe(`Too many new accounts from this ${what}; try again later.`);
  expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  return refused;
}

describe("open signup is limited per address and per address block", () => {
  it("refuses a fourth account from one address within the hour, and the seventh within the day", async () => {
    await using relay = await socketRelay({ behindProxy: true });
    for (let count = 0; count < SIGNUPS_PER_ADDRESS_MAX; count++)
      expect((await signUpFrom(relay, "203.0.113.9")).status).toBe(201);
    const refused = await expectRefused(relay, "203.0.113.9", "address");
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(60 * 60);
    // Another network is not held up.
    expect((await signUpFrom(relay, "198.51.100.21")).status).toBe(201);
    // A new hour allows as many again, until the day's allowance is spent.
    for (let hour = 1; hour < SIGNUPS_DAILY_FACTOR; hour++) {
      relay.clock.advance(HOUR_MS + 1);
      for (let count = 0; count < SIGNUPS_PER_ADDRESS_MAX; count++)
        expect((await signUpFrom(relay, "203.0.113.9")).status).toBe(201);
    }
    relay.clock.advance(HOUR_MS + 1);
    const ofTheDay = await expectRefused(relay, "203.0.113.9", "address");
    expect(Number(ofTheDay.headers.get("Retry-After"))).toBeGreaterThan(HOUR_MS / 1000);
  });

  it("counts an IPv4 /24 together: its addresses share a few addresses' allowance, a neighbouring /24 does not", async () => {
    await using relay = await socketRelay({ behindProxy: true });
    // Each address stays within its own limit; together they spend the block's.
    for (let count = 0; count < BLOCK_MAX; count++)
      expect((await signUpFrom(relay, `203.0.113.${count + 1}`)).status).toBe(201);
    await expectRefused(relay, "203.0.113.200", "network");
    expect((await signUpFrom(relay, "203.0.114.1")).status).toBe(201);
  });

  it("counts an IPv6 /64 as one address, and its /48 as one block", async () => {
    await using relay = await socketRelay({ behindProxy: true });
    for (let count = 0; count < SIGNUPS_PER_ADDRESS_MAX; count++)
      expect((await signUpFrom(relay, `2001:db8:7:1::${count + 1}`)).status).toBe(201);
    await expectRefused(relay, "2001:db8:7:1::ffff", "address");
    for (const subnet of ["2", "3"])
      for (let count = 0; count < SIGNUPS_PER_ADDRESS_MAX; count++)
        expect((await signUpFrom(relay, `2001:db8:7:${subnet}::1`)).status).toBe(201);
    await expectRefused(relay, "2001:db8:7:4::1", "network");
    expect((await signUpFrom(relay, "2001:db8:8:1::1")).status).toBe(201);
  });

  it("trusts X-Forwarded-For only behind a proxy: a client that invents it still counts as its socket's address", async () => {
    await using relay = await socketRelay();
    for (let count = 0; count < SIGNUPS_PER_ADDRESS_MAX; count++)
      expect((await signUpFrom(relay, `198.51.100.${count + 1}`)).status).toBe(201);
    await expectRefused(relay, "192.0.2.77", "address");
  });
});
