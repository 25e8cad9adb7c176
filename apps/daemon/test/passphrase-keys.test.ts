import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  aad,
  deriveKeyFromPassphrase,
  deriveKeyFromPassphraseV1,
  keyId,
  openJson,
  sealedKeyId,
} from "@ringback/e2e-crypto";
import { SealedReportPayload } from "@ringback/protocol";
import {
  eventually,
  makeTemporaryDirectory,
  type ScriptedRelay,
  startScriptedRelay,
} from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DaemonProcess,
  daemonEnv,
  postReport,
  readDaemonKey,
  readLocalKey,
  runCli,
  startDaemonProcess,
} from "./helpers/daemon-process.js";

/**
 * What a relay operator sees of two accounts whose users chose the same passphrase: the key id every sealed string
 * names. With one fixed salt for every account, one dictionary of phrase -> key id, computed once before any account
 * existed, named the phrase of every account on every relay, and the two accounts were linkable (same key id).
 */
const PASSPHRASE = "correct horse battery staple";
/** The operator's dictionary, computed once: common phrases, the users' among them. */
const DICTIONARY = ["password1234", "letmein12345", PASSPHRASE, "iloveyou1234"];

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let relay: ScriptedRelay;
const daemons: DaemonProcess[] = [];

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  relay = await startScriptedRelay();
});

afterAll(async () => {
  for (const daemon of daemons) await daemon.stop("SIGKILL");
  await relay?.close();
  await directory?.remove();
});

/** A computer logged in to `accountId` on the relay; `e2e` as its daemon.json holds it, if any. */
async function computer(name: string, accountId: string, e2e?: object): Promise<string> {
  const home = join(directory.path, name);
  await mkdir(home, { mode: 0o700 });
  const relayIdentity = { deviceToken: `token-of-${name}-0123456789`, accountId, deviceId: `dev_${name}` };
  await writeFile(
    join(home, "daemon.json"),
    JSON.stringify({ serverUrl: relay.url, relay: relayIdentity, ...(e2e ? { e2e } : {}) }),
    { mode: 0o600 },
  );
  return home;
}

/** The computer reports an agent's turn; resolves with the sealed string the relay received. */
async function reportThrough(home: string, turn: string): Promise<{ eventId: string; sealed: string }> {
  const daemon = await startDaemonProcess(home);
  daemons.push(daemon);
  const before = relay.posts.length;
  const report = { source: "claude-code", sessionId: `session-${turn}`, turnId: turn, cwd: home, text: turn };
  expect((await postReport(daemon, await readLocalKey(home), report)).status).toBe(202);
  const post = await eventually(() => relay.posts.slice(before).find((seen) => seen.answeredWith !== null), {
    what: `the report of ${turn} at the relay`,
    on: relay.changes,
  });
  return post.body;
}

describe("passphrase keys", () => {
  it("give two accounts with the same phrase unrelated key ids, which no dictionary computed once matches", async () => {
    const alice = await computer("alice", "acc_alice_7Hq2");
    const bob = await computer("bob", "acc_bob_Z9w4");
    for (const home of [alice, bob]) {
      const result = await runCli(["key", "--passphrase-stdin"], daemonEnv(home), `${PASSPHRASE}\n`);
      expect(result.code).toBe(0);
    }
    const seen = [await reportThrough(alice, "alice-turn"), await reportThrough(bob, "bob-turn")];
    const keyIds = seen.map((post) => sealedKeyId(post.sealed));
    // Not linkable: the operator cannot tell that the two accounts share a phrase.
    expect(keyIds[0]).not.toBe(keyIds[1]);
    // No dictionary computed once (without an account's salt) names either phrase.
    const dictionary = new Map<string, string>();
    for (const phrase of DICTIONARY)
      dictionary.set(await keyId(await deriveKeyFromPassphraseV1(phrase)), phrase);
    expect(keyIds.map((id) => dictionary.get(id))).toEqual([undefined, undefined]);
    // Each account's devices derive the computer's key from the same phrase, salted with their account.
    expect(await readDaemonKey(alice)).toBe(await deriveKeyFromPassphrase(PASSPHRASE, "acc_alice_7Hq2"));
    expect(await readDaemonKey(bob)).toBe(await deriveKeyFromPassphrase(PASSPHRASE, "acc_bob_Z9w4"));
  });

  it("keep a key made from a phrase before version 2 working: its reports open with it as before", async () => {
    const oldKey = await deriveKeyFromPassphraseV1(PASSPHRASE);
    const carol = await computer("carol", "acc_carol_Xy12", {
      key: oldKey,
      source: "passphrase",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    const post = await reportThrough(carol, "carol-turn");
    expect(sealedKeyId(post.sealed)).toBe(await keyId(oldKey));
    const opened = SealedReportPayload.parse(await openJson(oldKey, aad.report(post.eventId), post.sealed));
    expect(opened.report.text).toBe("carol-turn");
  });
});
