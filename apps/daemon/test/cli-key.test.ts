import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deriveKeyFromPassphrase } from "@ringback/e2e-crypto";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  daemonEnv,
  readDaemonConfig,
  readLocalKey,
  runCli,
  startDaemonProcess,
} from "./helpers/daemon-process.js";

const PASSPHRASE = "the phrase the phone also has";
/** The account this computer logged in to: a passphrase key is salted with its id. */
const ACCOUNT_ID = "acc_cli_test_account";

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
const daemons: DaemonProcess[] = [];

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
  const relay = { deviceToken: "computer-token-0123456789", accountId: ACCOUNT_ID, deviceId: "dev_laptop" };
  await writeFile(join(directory.path, "daemon.json"), JSON.stringify({ relay }), { mode: 0o600 });
});

afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
  await directory.remove();
});

describe("ringback key", () => {
  it("stores only the key derived from the passphrase, and prints neither", async () => {
    const result = await runCli(["key", "--passphrase-stdin"], daemonEnv(directory.path), `${PASSPHRASE}\n`);
    expect(result.code).toBe(0);
    const expected = await deriveKeyFromPassphrase(PASSPHRASE, ACCOUNT_ID);
    const config = await readDaemonConfig(directory.path);
    expect(config.e2e).toMatchObject({ key: expected, source: "passphrase" });
    expect(result.stdout).toMatch(
      /^End-to-end key [0-9a-f]{16} \(passphrase\) is this computer's key now\.$/m,
    );
    for (const secret of [PASSPHRASE, expected]) expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it("refuses a passphrase before the computer has an account (the key is salted with it), keeping the key", async () => {
    await writeFile(join(directory.path, "daemon.json"), "{}", { mode: 0o600 });
    const before = await runCli(["key", "--random"], daemonEnv(directory.path));
    expect(before.code).toBe(0);
    const key = (await readDaemonConfig(directory.path)).e2e?.key;
    const result = await runCli(["key", "--passphrase-stdin"], daemonEnv(directory.path), `${PASSPHRASE}\n`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ringback: .*log in first \(ringback login\)/m);
    expect((await readDaemonConfig(directory.path)).e2e?.key).toBe(key);
  });

  it("refuses a passphrase under 12 characters and leaves the key as it was", async () => {
    const before = await runCli(["key", "--random"], daemonEnv(directory.path));
    expect(before.code).toBe(0);
    const key = (await readDaemonConfig(directory.path)).e2e?.key;
    const result = await runCli(["key", "--passphrase-stdin"], daemonEnv(directory.path), "too short\n");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ringback: .*12 characters/m);
    expect((await readDaemonConfig(directory.path)).e2e?.key).toBe(key);
  });

  it("replaces the running daemon's key at once", async () => {
    const daemon = await startDaemonProcess(directory.path);
    daemons.push(daemon);
    const env = daemonEnv(directory.path, { RINGBACK_PORT: String(daemon.port) });
    const result = await runCli(["key", "--passphrase-stdin"], env, PASSPHRASE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("in the running daemon too");
    const response = await fetch(`${daemon.url}/e2e/key`, {
      headers: { authorization: `Bearer ${await readLocalKey(directory.path)}` },
    });
    const record = (await response.json()) as { key: string; source: string };
    expect(record).toMatchObject({
      key: await deriveKeyFromPassphrase(PASSPHRASE, ACCOUNT_ID),
      source: "passphrase",
    });
  });
});
