import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import {
  DEVICES_PER_ACCOUNT_MAX,
  PAIRINGS_PER_ACCOUNT_MAX,
  STREAMS_PER_ACCOUNT_MAX,
  STREAMS_PER_ADDRESS_MAX,
} from "../src/relay-config.js";
import { ChildRelay } from "./support/child-relay.js";
import { requestAt } from "./support/in-process-relay.js";

type Request = ReturnType<typeof requestAt>;

/** One token mints devices the way the finding did: it makes a pairing code and redeems it itself, again and again. */
async function mint(request: Request, token: string, tries: number) {
  const answers: { status: number; code: string | undefined; token?: string }[] = [];
  for (let attempt = 0; attempt < tries; attempt++) {
    const code = await request("POST", "/v1/pairing-codes", { token });
    const joined = await request("POST", "/v1/pairing-codes/redeem", {
      body: { code: code.body.code, deviceName: `minted ${attempt}`, deviceKind: "browser" },
    });
    answers.push({ status: joined.status, code: joined.body?.error?.code, token: joined.body?.deviceToken });
    if (joined.status !== 201) break;
  }
  return answers;
}

/** A raw SSE stream (no reconnecting): its status, and whether the relay has ended it. */
interface OpenStream {
  readonly status: number;
  isEnded: boolean;
  close(): void;
}

async function openStream(url: string, token: string, address: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(new URL("/v1/stream", url), {
    headers: { Authorization: `Bearer ${token}`, "X-Forwarded-For": address },
    signal: controller.signal,
  });
  const stream = {
    status: response.status,
    isEnded: response.status !== 200,
    close: () => controller.abort(),
  };
  if (response.status === 200 && response.body) {
    const reader = response.body.getReader();
    const drain = async () => {
      while (!(await reader.read()).done) {}
    };
    // Aborting (the test's close) rejects the read: the stream has ended either way.
    drain()
      .catch(() => undefined)
      .finally(() => {
        stream.isEnded = true;
      });
  } else {
    await response.body?.cancel();
  }
  return stream;
}

describe("one device token minting devices and streams (the relay process)", () => {
  it("lets one token add only so many devices an hour, and an account only so many devices", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path, args: ["--open-signup"] });
    const request = requestAt(relay.url);
    const owner = await request("POST", "/v1/accounts", {
      body: { deviceName: "pc", deviceKind: "computer" },
    });
    // 300 tries (the finding's 300 devices in 6 s): the account's first device counts towards the hour's joins.
    const answers = await mint(request, owner.body.deviceToken, 300);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(PAIRINGS_PER_ACCOUNT_MAX - 1);
    expect(answers.at(-1)).toMatchObject({ status: 429, code: "rate_limited" });
    const devices = await request("GET", "/v1/devices", { token: owner.body.deviceToken });
    expect(devices.body.devices).toHaveLength(PAIRINGS_PER_ACCOUNT_MAX);

    // With the hourly limit out of the way, the account's own limit holds: removing devices makes room, no more.
    await using roomyData = await makeTemporaryDirectory();
    await using roomy = await ChildRelay.start({
      dataDir: roomyData.path,
      args: ["--open-signup", "--pairings-per-account", "1000"],
    });
    const roomyRequest = requestAt(roomy.url);
    const first = await roomyRequest("POST", "/v1/accounts", {
      body: { deviceName: "pc", deviceKind: "computer" },
    });
    const minted = await mint(roomyRequest, first.body.deviceToken, 300);
    expect(minted.filter((answer) => answer.status === 201)).toHaveLength(DEVICES_PER_ACCOUNT_MAX - 1);
    expect(minted.at(-1)).toMatchObject({ status: 403, code: "device_limit" });
  });

  it("keeps an account's open streams bounded, and an address's across accounts", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({
      dataDir: data.path,
      args: ["--open-signup", "--behind-proxy"],
    });
    const request = requestAt(relay.url);
    /** An account with as many devices as an hour allows, all minted by its first device's token. */
    const accountOfTen = async (address: string) => {
      const owner = await request("POST", "/v1/accounts", {
        headers: { "X-Forwarded-For": address },
        body: { deviceName: "pc", deviceKind: "computer" },
      });
      const tokens = [owner.body.deviceToken as string];
      for (const answer of await mint(request, owner.body.deviceToken, PAIRINGS_PER_ACCOUNT_MAX))
        if (answer.token) tokens.push(answer.token);
      expect(tokens).toHaveLength(PAIRINGS_PER_ACCOUNT_MAX);
      return tokens;
    };
    const address = "192.0.2.77";
    // Ten devices of one account, four streams each (each device's own limit), from one address: the account keeps
    // its newest 32.
    const first: OpenStream[] = [];
    for (const token of await accountOfTen("198.51.100.1"))
      for (let copy = 0; copy < 4; copy++) first.push(await openStream(relay.url, token, address));
    expect(first.every((stream) => stream.status === 200)).toBe(true);
    const closedByAccount = first.length - STREAMS_PER_ACCOUNT_MAX;
    await eventually(() => first.filter((stream) => stream.isEnded).length === closedByAccount, {
      what: "the account's oldest streams to be closed",
    });
    expect(first.slice(0, closedByAccount).every((stream) => stream.isEnded)).toBe(true);

    // A second account from the same address fills the address's 64; a third account's stream from it is refused.
    const second: OpenStream[] = [];
    for (const token of await accountOfTen("198.51.100.2"))
      for (
        let copy = 0;
        copy < 4 && second.length < STREAMS_PER_ADDRESS_MAX - STREAMS_PER_ACCOUNT_MAX;
        copy++
      )
        second.push(await openStream(relay.url, token, address));
    expect(second.every((stream) => stream.status === 200)).toBe(true);
    const [third] = await accountOfTen("198.51.100.3");
    const refused = await openStream(relay.url, third ?? "", address);
    expect(refused.status).toBe(429);
    // Another address is another client.
    const elsewhere = await openStream(relay.url, third ?? "", "192.0.2.78");
    expect(elsewhere.status).toBe(200);
    for (const stream of [...first, ...second, elsewhere]) stream.close();
  });
});
