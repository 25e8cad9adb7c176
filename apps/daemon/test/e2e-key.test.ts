import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { deriveKeyFromPassphrase, generateKey, keyId } from "@ringback/e2e-crypto";
import { E2eKeyRecord, PutE2eKeyResponse } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";
import { errorCode } from "./helpers/responses.js";

let daemon: InProcessDaemon;
/** The account the computer logged in to: a passphrase key is salted with its id. */
const ACCOUNT_ID = "acc_e2e_key_test";
const RELAY_IDENTITY = {
  deviceToken: "computer-token-0123456789",
  accountId: ACCOUNT_ID,
  deviceId: "dev_laptop",
};

beforeEach(async () => {
  daemon = await startInProcessDaemon({ config: { relay: RELAY_IDENTITY } });
});

afterEach(async () => {
  await daemon.close();
});

async function savedE2e(): Promise<Record<string, string>> {
  return JSON.parse(await readFile(join(daemon.dataDir, CONFIG_FILE), "utf8")).e2e;
}

async function getKey() {
  return E2eKeyRecord.parse(await (await daemon.request("/e2e/key")).json());
}

function put(body: unknown) {
  return daemon.request("/e2e/key", { method: "PUT", body });
}

describe("/e2e/key", () => {
  it("returns the key generated on the first run with its id", async () => {
    const record = await getKey();
    expect(record.source).toBe("generated");
    expect(record.key).toBe((await savedE2e()).key);
    expect(record.keyId).toBe(await keyId(record.key as Parameters<typeof keyId>[0]));
  });

  it("stores only the key derived from a passphrase", async () => {
    const passphrase = "correct horse battery staple";
    const response = await put({ passphrase });
    expect(response.status).toBe(200);
    const result = PutE2eKeyResponse.parse(await response.json());
    const derived = await deriveKeyFromPassphrase(passphrase, ACCOUNT_ID);
    expect(result).toMatchObject({ source: "passphrase", keyId: await keyId(derived) });
    expect((await getKey()).key).toBe(derived);
    const file = await readFile(join(daemon.dataDir, CONFIG_FILE), "utf8");
    expect(file).not.toContain(passphrase);
    expect(daemon.logLines.join("\n")).not.toContain(passphrase);
  });

  it("refuses a passphrase with 409 account_required while the computer has no account, keeping its key", async () => {
    await daemon.close();
    daemon = await startInProcessDaemon();
    const response = await put({ passphrase: "correct horse battery staple" });
    expect(response.status).toBe(409);
    expect(await errorCode(response)).toBe("account_required");
    expect((await getKey()).source).toBe("generated");
  });

  it("counts passphrase characters after NFC: 11 composed characters are too short", async () => {
    const elevenComposed = "e\u0301".repeat(11);
    const response = await put({ passphrase: elevenComposed });
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("passphrase_too_short");
    expect((await getKey()).source).toBe("generated");
  });

  it("accepts an rbk1_ key (the older form)", async () => {
    const key = generateKey();
    const response = await put({ key });
    expect(PutE2eKeyResponse.parse(await response.json()).source).toBe("imported");
    expect((await getKey()).key).toBe(key);
  });

  it.each(["rbk1_short", "not-a-key", `${generateKey()} `])(
    "refuses the key %j with 422 invalid_key",
    async (key) => {
      const response = await put({ key });
      expect(response.status).toBe(422);
      expect(await errorCode(response)).toBe("invalid_key");
    },
  );

  it("makes a new random key", async () => {
    const before = await getKey();
    const response = await put({ random: true });
    expect(PutE2eKeyResponse.parse(await response.json()).source).toBe("random");
    const after = await getKey();
    expect(after.key).not.toBe(before.key);
    expect(after.updatedAt >= before.updatedAt).toBe(true);
  });

  it.each([{}, { random: false }, { passphrase: "long enough phrase", key: generateKey() }])(
    "refuses %j with 400 invalid_request",
    async (body) => {
      const response = await put(body);
      expect(response.status).toBe(400);
      expect(await errorCode(response)).toBe("invalid_request");
    },
  );
});
