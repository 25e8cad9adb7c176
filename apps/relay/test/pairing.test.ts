import { PAIRING_CODE_TTL_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { inProcessRelay } from "./support/in-process-relay.js";

const redeemBody = (code: string) => ({ code, deviceName: "phone", deviceKind: "phone" });

describe("pairing codes", () => {
  it("makes a 12-digit code valid for 10 minutes", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const created = await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken });
    expect(created.status).toBe(201);
    expect(created.body.code).toMatch(/^[0-9]{12}$/);
    expect(Date.parse(created.body.expiresAt)).toBe(relay.clock.now() + PAIRING_CODE_TTL_MS);
  });

  it("joins the code's account once", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body;
    const joined = await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(code) });
    expect(joined.status).toBe(201);
    expect(joined.body.accountId).toBe(computer.accountId);
    expect((await relay.request("GET", "/v1/devices", { token: joined.body.deviceToken })).status).toBe(200);
    const again = await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(code) });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe("invalid_pairing_code");
  });

  it("refuses a code after its 10 minutes", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body;
    relay.clock.advance(PAIRING_CODE_TTL_MS);
    const late = await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(code) });
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe("invalid_pairing_code");
  });

  it("accepts a code typed with a space or dash", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body;
    const typed = `${code.slice(0, 3)} ${code.slice(3)}`;
    expect(
      (await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(typed) })).status,
    ).toBe(201);
  });

  it("replaces a device's earlier code with its new one", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const first = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body
      .code;
    const second = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body
      .code;
    if (first !== second) {
      expect(
        (await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(first) })).status,
      ).toBe(422);
    }
    expect(
      (await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(second) })).status,
    ).toBe(201);
  });

  it("needs a device token to make a code", async () => {
    await using relay = await inProcessRelay();
    expect((await relay.request("POST", "/v1/pairing-codes")).status).toBe(401);
  });

  it("never logs a pairing code", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body;
    await relay.request("POST", "/v1/pairing-codes/redeem", { body: redeemBody(code) });
    expect(relay.logs.join("\n")).toContain("device paired");
    expect(relay.logs.join("\n")).not.toContain(code);
  });
});

describe("pairing-code guess limit", () => {
  const WRONG = "000000";
  const fromAddress = (address: string) => ({ "X-Forwarded-For": `10.9.9.9, ${address}` });

  async function guess(relay: Awaited<ReturnType<typeof inProcessRelay>>, code: string, address: string) {
    return relay.request("POST", "/v1/pairing-codes/redeem", {
      body: redeemBody(code),
      headers: fromAddress(address),
    });
  }

  it("stops an address after 10 wrong codes in 10 minutes, with Retry-After", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const computer = await relay.signUp();
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await guess(relay, WRONG, "1.2.3.4")).status).toBe(422);
    const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body;
    const limited = await guess(relay, code, "1.2.3.4");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("Retry-After"))).toBe(600);
    // The limited guess did not use the code up.
    expect((await guess(relay, code, "5.6.7.8")).status).toBe(201);
  });

  it("lets the address try again after the window", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    const computer = await relay.signUp();
    for (let attempt = 0; attempt < 10; attempt++) await guess(relay, WRONG, "1.2.3.4");
    relay.clock.advance(10 * 60_000);
    const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken })).body;
    expect((await guess(relay, code, "1.2.3.4")).status).toBe(201);
  });

  it("does not count successful redemptions", async () => {
    // The account's own limit on joins per hour is not what this test is about.
    await using relay = await inProcessRelay({ behindProxy: true, pairingsPerAccountMax: 100 });
    const computer = await relay.signUp();
    for (let device = 0; device < 12; device++) {
      const { code } = (await relay.request("POST", "/v1/pairing-codes", { token: computer.deviceToken }))
        .body;
      expect((await guess(relay, code, "1.2.3.4")).status).toBe(201);
    }
  });

  it("counts an IPv6 /64 as one address", async () => {
    await using relay = await inProcessRelay({ behindProxy: true });
    for (let attempt = 0; attempt < 10; attempt++) await guess(relay, WRONG, `2001:db8:1:2::${attempt + 1}`);
    expect((await guess(relay, WRONG, "2001:db8:1:2:ffff::1")).status).toBe(429);
    expect((await guess(relay, WRONG, "2001:db8:1:3::1")).status).toBe(422);
  });

  it("ignores X-Forwarded-For unless told it runs behind a proxy", async () => {
    await using relay = await inProcessRelay({ behindProxy: false });
    for (let attempt = 0; attempt < 10; attempt++) await guess(relay, WRONG, `1.1.1.${attempt}`);
    expect((await guess(relay, WRONG, "9.9.9.9")).status).toBe(429);
  });
});
