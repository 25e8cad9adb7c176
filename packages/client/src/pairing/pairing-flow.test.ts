import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { deriveKeyFromPassphrase, generateKey } from "@ringback/e2e-crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount, joinWithCode, joinWithLink } from "./pairing-flow.js";
import { formatPairingLink } from "./pairing-link.js";

const CREDENTIALS = { accountId: "acc1", deviceId: "dev2", deviceToken: "tok" };
const DEVICE = { deviceName: "Chrome on Android", deviceKind: "phone" as const };

/** A relay stand-in that records the bodies it receives and answers with credentials. */
async function startRelay() {
  const received: { url: string; body: Record<string, unknown> }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      received.push({ url: request.url!, body: JSON.parse(body || "{}") });
      response.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify(CREDENTIALS));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("pairing", () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;

  beforeEach(async () => {
    relay = await startRelay();
  });

  afterEach(async () => {
    await relay.close();
  });

  it("joins with a pairing link: the code goes to the relay, the key never does", async () => {
    const key = generateKey();
    const pairing = await joinWithLink(
      formatPairingLink({ serverUrl: relay.origin, code: "123456789012", key }),
      DEVICE,
    );
    expect(pairing).toEqual({ identity: { ...CREDENTIALS, serverUrl: relay.origin }, key });
    expect(relay.received).toEqual([
      {
        url: "/v1/pairing-codes/redeem",
        body: { code: "123456789012", deviceName: DEVICE.deviceName, deviceKind: "phone" },
      },
    ]);
    expect(JSON.stringify(relay.received)).not.toContain(key);
  });

  it("joins with a code and the phrase, deriving the same key as the computer (salted with the account)", async () => {
    const phrase = "a phrase of twelve+ chars";
    const pairing = await joinWithCode({ serverUrl: relay.origin, code: "1234 5678 9012", phrase }, DEVICE);
    expect(pairing.key).toBe(await deriveKeyFromPassphrase(phrase, CREDENTIALS.accountId));
    expect(relay.received[0]?.body.code).toBe("123456789012");
    expect(JSON.stringify(relay.received)).not.toContain(phrase);
  });

  it("does not spend the code when the phrase is too short", async () => {
    await expect(
      joinWithCode({ serverUrl: relay.origin, code: "123456789012", phrase: "short" }, DEVICE),
    ).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    expect(relay.received).toEqual([]);
  });

  it("creates an account with a phrase: the key is salted with the new account's id", async () => {
    const phrase = "a phrase of twelve+ chars";
    const pairing = await createAccount({ serverUrl: relay.origin, phrase }, DEVICE);
    expect(pairing.key).toBe(await deriveKeyFromPassphrase(phrase, CREDENTIALS.accountId));
    expect(JSON.stringify(relay.received)).not.toContain(phrase);
    await expect(
      createAccount({ serverUrl: relay.origin, phrase: "too short" }, DEVICE),
    ).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    expect(relay.received).toHaveLength(1);
  });

  it("creates an account with the claim code and a random key when no phrase is given", async () => {
    const pairing = await createAccount({ serverUrl: relay.origin, claimCode: " 1234-5678 " }, DEVICE);
    expect(pairing.key).toMatch(/^rbk1_/);
    expect(relay.received).toEqual([
      {
        url: "/v1/accounts",
        body: { deviceName: DEVICE.deviceName, deviceKind: "phone", claimCode: "1234-5678" },
      },
    ]);
  });
});
