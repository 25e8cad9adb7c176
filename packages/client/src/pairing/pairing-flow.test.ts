import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { deriveKeyFromPassphrase, type E2eKey, generateKey, openDeviceName } from "@ringback/e2e-crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount, joinWithCode, joinWithLink } from "./pairing-flow.js";
import { formatPairingLink } from "./pairing-link.js";

const CREDENTIALS = { accountId: "acc1", deviceId: "dev2", deviceToken: "tok" };
const DEVICE = { deviceName: "Chrome on Android", deviceKind: "phone" as const };

interface Received {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

/**
 * A relay stand-in that records the requests it receives: it answers a join with credentials and a rename with the
 * name it keeps, unless `isRenameRefused`.
 */
async function startRelay() {
  const received: Received[] = [];
  const state = { isRenameRefused: false };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const parsed = JSON.parse(body || "{}");
      received.push({
        method: request.method!,
        url: request.url!,
        authorization: request.headers.authorization,
        body: parsed,
      });
      const json = (status: number, answer: unknown) =>
        response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
      if (request.url !== "/v1/devices/me/name") return json(201, CREDENTIALS);
      if (state.isRenameRefused)
        return json(503, { error: { code: "relay_unavailable", message: "Later." } });
      json(200, { deviceId: CREDENTIALS.deviceId, name: parsed.name });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The name a request carried, opened with `key`: it must be sealed. */
async function sealedNameIn(request: Received | undefined, field: string, key: E2eKey): Promise<string> {
  const sent = request?.body[field];
  if (typeof sent !== "string") throw new Error(`no ${field} in ${JSON.stringify(request)}`);
  expect(sent).toMatch(/^e2e1\./);
  return openDeviceName(key, sent);
}

describe("pairing", () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;

  beforeEach(async () => {
    relay = await startRelay();
  });

  afterEach(async () => {
    await relay.close();
  });

  it("joins with a pairing link: the code goes to the relay, the key never does, the name goes sealed", async () => {
    const key = generateKey();
    const pairing = await joinWithLink(
      formatPairingLink({ serverUrl: relay.origin, code: "123456789012", key }),
      DEVICE,
    );
    expect(pairing).toEqual({
      identity: { ...CREDENTIALS, serverUrl: relay.origin, deviceName: DEVICE.deviceName },
      key,
    });
    expect(relay.received).toEqual([
      {
        method: "POST",
        url: "/v1/pairing-codes/redeem",
        authorization: undefined,
        body: { code: "123456789012", deviceName: expect.any(String), deviceKind: "phone" },
      },
    ]);
    expect(await sealedNameIn(relay.received[0], "deviceName", key)).toBe(DEVICE.deviceName);
    expect(JSON.stringify(relay.received)).not.toContain(key);
    expect(JSON.stringify(relay.received)).not.toContain(DEVICE.deviceName);
  });

  it("joins with a code and the phrase: the key is salted with the account, the name is set sealed once it is", async () => {
    const phrase = "a phrase of twelve+ chars";
    const pairing = await joinWithCode({ serverUrl: relay.origin, code: "1234 5678 9012", phrase }, DEVICE);
    expect(pairing.key).toBe(await deriveKeyFromPassphrase(phrase, CREDENTIALS.accountId));
    const [redeem, rename] = relay.received;
    expect(redeem?.body).toEqual({ code: "123456789012", deviceName: "phone", deviceKind: "phone" });
    expect(rename).toMatchObject({ method: "PUT", url: "/v1/devices/me/name", authorization: "Bearer tok" });
    expect(await sealedNameIn(rename, "name", pairing.key)).toBe(DEVICE.deviceName);
    expect(JSON.stringify(relay.received)).not.toContain(phrase);
    expect(JSON.stringify(relay.received)).not.toContain(DEVICE.deviceName);
  });

  it("joins all the same when the relay does not take the name: it stays the placeholder", async () => {
    relay.state.isRenameRefused = true;
    const phrase = "a phrase of twelve+ chars";
    const pairing = await joinWithCode({ serverUrl: relay.origin, code: "123456789012", phrase }, DEVICE);
    expect(pairing.identity).toMatchObject({ ...CREDENTIALS, deviceName: DEVICE.deviceName });
    expect(relay.received.map((request) => request.url)).toEqual([
      "/v1/pairing-codes/redeem",
      "/v1/devices/me/name",
    ]);
  });

  it("sends nothing for a name the relay could not have taken: empty, or over 100 characters", async () => {
    const key = generateKey();
    const link = formatPairingLink({ serverUrl: relay.origin, code: "123456789012", key });
    for (const deviceName of ["   ", "x".repeat(101)]) {
      await expect(joinWithLink(link, { ...DEVICE, deviceName })).rejects.toBeInstanceOf(RangeError);
      await expect(
        joinWithCode(
          { serverUrl: relay.origin, code: "123456789012", phrase: "a phrase of twelve+ chars" },
          {
            ...DEVICE,
            deviceName,
          },
        ),
      ).rejects.toBeInstanceOf(RangeError);
    }
    expect(relay.received).toEqual([]);
    const trimmed = await joinWithLink(link, { ...DEVICE, deviceName: "  Pixel  " });
    expect(trimmed.identity.deviceName).toBe("Pixel");
    expect(await sealedNameIn(relay.received[0], "deviceName", key)).toBe("Pixel");
  });

  it("does not spend the code when the phrase is too short", async () => {
    await expect(
      joinWithCode({ serverUrl: relay.origin, code: "123456789012", phrase: "short" }, DEVICE),
    ).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    expect(relay.received).toEqual([]);
  });

  it("creates an account with a phrase: the key is salted with the new account's id, the name sealed with it", async () => {
    const phrase = "a phrase of twelve+ chars";
    const pairing = await createAccount({ serverUrl: relay.origin, phrase }, DEVICE);
    expect(pairing.key).toBe(await deriveKeyFromPassphrase(phrase, CREDENTIALS.accountId));
    const [created, rename] = relay.received;
    expect(created?.body).toEqual({ deviceName: "phone", deviceKind: "phone" });
    expect(await sealedNameIn(rename, "name", pairing.key)).toBe(DEVICE.deviceName);
    expect(JSON.stringify(relay.received)).not.toContain(phrase);
    await expect(
      createAccount({ serverUrl: relay.origin, phrase: "too short" }, DEVICE),
    ).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    expect(relay.received).toHaveLength(2);
  });

  it("creates an account with the claim code and a random key when no phrase is given, the name sealed at once", async () => {
    const pairing = await createAccount({ serverUrl: relay.origin, claimCode: " 1234-5678 " }, DEVICE);
    expect(pairing.key).toMatch(/^rbk1_/);
    expect(relay.received).toEqual([
      {
        method: "POST",
        url: "/v1/accounts",
        authorization: undefined,
        body: { deviceName: expect.any(String), deviceKind: "phone", claimCode: "1234-5678" },
      },
    ]);
    expect(await sealedNameIn(relay.received[0], "deviceName", pairing.key)).toBe(DEVICE.deviceName);
  });
});
