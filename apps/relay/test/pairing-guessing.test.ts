import { randomInt } from "node:crypto";
import { PAIRING_CODE_DIGITS } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";
import { requestAt } from "./support/in-process-relay.js";

/** A code nobody was given: 12 random digits (the odds of hitting one of three live codes are 3 in a trillion). */
const randomCode = () => Array.from({ length: PAIRING_CODE_DIGITS }, () => String(randomInt(10))).join("");

describe("guessing pairing codes at the relay process", () => {
  it("lets no stranger burn the live codes: after 30 wrong guesses from 3 addresses every owner still pairs", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path, args: ["--behind-proxy"] });
    const request = requestAt(relay.url);
    const from = (address: string) => ({ "X-Forwarded-For": address });
    const created = await request("POST", "/v1/accounts", {
      body: { deviceName: "desk", deviceKind: "computer", claimCode: relay.claimCode },
    });
    expect(created.status).toBe(201);
    // Three devices of the account each hold a live code, as people adding phones and tablets do.
    const redeem = (code: string, address: string, name = "phone") =>
      request("POST", "/v1/pairing-codes/redeem", {
        headers: from(address),
        body: { code, deviceName: name, deviceKind: "phone" },
      });
    const codeOf = async (token: string) => {
      const code = await request("POST", "/v1/pairing-codes", { token });
      expect(code.status).toBe(201);
      return code.body.code as string;
    };
    const laptopCode = await codeOf(created.body.deviceToken);
    const laptop = await redeem(laptopCode, "198.51.100.2", "laptop");
    expect(laptop.status).toBe(201);
    const tabletCode = await codeOf(created.body.deviceToken);
    const tablet = await redeem(tabletCode, "198.51.100.3", "tablet");
    expect(tablet.status).toBe(201);
    const liveCodes = await Promise.all(
      [created.body.deviceToken, laptop.body.deviceToken, tablet.body.deviceToken].map(codeOf),
    );
    for (const code of liveCodes) expect(code).toMatch(new RegExp(`^[0-9]{${PAIRING_CODE_DIGITS}}$`));

    // The attack: ten wrong guesses from each of three addresses (what burned every live code on the relay).
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      for (let guess = 0; guess < 10; guess++) {
        const answer = await redeem(randomCode(), address);
        expect(answer.body.error.code).toBe("invalid_pairing_code");
      }
      // That address is done for the window.
      expect((await redeem(randomCode(), address)).status).toBe(429);
    }
    // Every owner's code still pairs, from the owners' own addresses.
    const joined = await Promise.all(
      liveCodes.map((code, index) => redeem(code, `198.51.100.${10 + index}`)),
    );
    expect(joined.map((answer) => answer.status)).toEqual([201, 201, 201]);
  });

  it("counts an IPv6 guesser by its /48: rotating through /64s buys no more guesses", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path, args: ["--behind-proxy"] });
    const request = requestAt(relay.url);
    const guess = (address: string) =>
      request("POST", "/v1/pairing-codes/redeem", {
        headers: { "X-Forwarded-For": address },
        body: { code: randomCode(), deviceName: "guesser", deviceKind: "phone" },
      });
    const statuses: number[] = [];
    // 100 /64s of one /48, ten guesses each, until the site is refused.
    for (let subnet = 1; subnet <= 100 && statuses.at(-1) !== 429; subnet++)
      for (let attempt = 0; attempt < 10 && statuses.at(-1) !== 429; attempt++)
        statuses.push((await guess(`2001:db8:42:${subnet.toString(16)}::${attempt + 1}`)).status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });
});
