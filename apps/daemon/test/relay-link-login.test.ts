import { stat } from "node:fs/promises";
import { join } from "node:path";
import { sealSettingsRequest } from "@ringback/client";
import { aad, keyId, openDeviceName, openJson, parseKey } from "@ringback/e2e-crypto";
import { LocalLoginResult, PairingResult, SettingsResultPlaintext } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import {
  type DaemonProcess,
  daemonEnv,
  postReport,
  readDaemonConfig,
  readLocalKey,
  readLocalStatus,
  runCli,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { pairDevice, redeem, relayCall } from "./helpers/relay-devices.js";
import { type RelayProcess, startRelayProcess } from "./helpers/relay-process.js";

const PASSPHRASE = "correct horse battery staple";

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let relay: RelayProcess;
const daemons: DaemonProcess[] = [];

function homeOf(name: string): string {
  return join(directory.path, name);
}

function ringback(home: string, args: string[], stdin?: string) {
  return runCli(args, daemonEnv(homeOf(home)), stdin);
}

beforeEach(async () => {
  directory = await makeTemporaryDirectory();
});

afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.kill();
  await relay?.stop();
  await directory.remove();
});

describe("ringback login", () => {
  it("creates an account with this computer as its first device and keeps the token in daemon.json only", async () => {
    relay = await startRelayProcess({ dataDir: homeOf("relay"), args: ["--open-signup"] });
    const login = await ringback("laptop", ["login", "--server", relay.url, "--name", "laptop"]);
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(
      /^Created account acc_\S+ on http:\/\/127\.0\.0\.1:\d+; this computer is device dev_/,
    );
    const config = await readDaemonConfig(homeOf("laptop"));
    expect(config.serverUrl).toBe(relay.url);
    expect(config.relay).toEqual({
      deviceToken: expect.any(String),
      accountId: expect.stringMatching(/^acc_/),
      deviceId: expect.stringMatching(/^dev_/),
      deviceName: "laptop",
    });
    expect((await stat(join(homeOf("laptop"), CONFIG_FILE))).mode & 0o777).toBe(0o600);
    const token = config.relay?.deviceToken ?? "missing";
    expect(`${login.stdout}${login.stderr}`).not.toContain(token);
    const devices = await relayCall(relay.url, "GET", "/v1/devices", { token });
    expect(devices.body.devices).toEqual([expect.objectContaining({ kind: "computer" })]);
    // The name went sealed with the key this computer keeps: the relay lists it without reading it.
    const listed: string = devices.body.devices[0].name;
    expect(await openDeviceName(parseKey(config.e2e?.key ?? ""), listed)).toBe("laptop");
    expect(login.stdout).not.toContain("left account");

    // Logging in again creates another account: it says which one this computer left.
    const again = await ringback("laptop", ["login", "--server", relay.url, "--name", "laptop"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `This computer left account ${config.relay?.accountId} on ${relay.url}: the devices paired there no longer get its calls`,
    );
  });

  it("asks for the relay's claim code, and creates the account with it", async () => {
    relay = await startRelayProcess({ dataDir: homeOf("relay") });
    expect(relay.claimCode).toMatch(/^\d{3}-\d{3}-\d{3}$/);
    const refused = await ringback("laptop", ["login", "--server", relay.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/needs its claim code.*--claim-code/);
    expect((await readDaemonConfig(homeOf("laptop"))).relay).toBeUndefined();
    const login = await ringback("laptop", [
      "login",
      "--server",
      relay.url,
      "--claim-code",
      relay.claimCode ?? "",
    ]);
    expect(login.code).toBe(0);
    const closed = await ringback("other", ["login", "--server", relay.url]);
    expect(closed.stderr).toMatch(/already has its account: join it with a pairing link/);
  });

  it("joins with a pairing link and adopts its key; with a code and the passphrase it derives the same key", async () => {
    relay = await startRelayProcess({ dataDir: homeOf("relay"), args: ["--open-signup"] });
    const first = await ringback(
      "laptop",
      ["login", "--server", relay.url, "--passphrase-stdin"],
      `${PASSPHRASE}\n`,
    );
    expect(first.stdout).toMatch(/End-to-end key [0-9a-f]{16} \(passphrase\)/);
    const laptop = await readDaemonConfig(homeOf("laptop"));
    const laptopKeyId = await keyId(parseKey(laptop.e2e?.key ?? ""));

    const pairing = PairingResult.parse(JSON.parse((await ringback("laptop", ["pair", "--json"])).stdout));
    const joined = await ringback("desktop", ["login", pairing.link, "--name", "desktop"]);
    expect(joined.code).toBe(0);
    expect(joined.stdout).toContain(`Joined account ${laptop.relay?.accountId}`);
    const desktop = await readDaemonConfig(homeOf("desktop"));
    expect(desktop.e2e).toMatchObject({ key: laptop.e2e?.key, source: "imported" });
    expect(desktop.relay?.accountId).toBe(laptop.relay?.accountId);

    const code = PairingResult.parse(JSON.parse((await ringback("laptop", ["pair", "--json"])).stdout)).code;
    const tooShort = await ringback(
      "server",
      ["login", code, "--server", relay.url, "--passphrase-stdin"],
      "short",
    );
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toMatch(/12 characters/);
    const withCode = await ringback(
      "server",
      ["login", code, "--server", relay.url, "--passphrase-stdin"],
      PASSPHRASE,
    );
    expect(withCode.code).toBe(0);
    const server = await readDaemonConfig(homeOf("server"));
    expect(await keyId(parseKey(server.e2e?.key ?? ""))).toBe(laptopKeyId);
    expect(server.e2e?.source).toBe("passphrase");
    const devices = await relayCall(relay.url, "GET", "/v1/devices", { token: server.relay?.deviceToken });
    // Every name is sealed: the passphrase logins sent "computer" first and set it sealed once the key was derived,
    // the link login sent it sealed with the link's key at once.
    const key = parseKey(server.e2e?.key ?? "");
    const names = devices.body.devices.map((device: { name: string }) => device.name) as string[];
    expect(await Promise.all(names.map((name) => openDeviceName(key, name)))).toEqual([
      expect.any(String),
      "desktop",
      expect.any(String),
    ]);
    expect(await openDeviceName(key, names[2] ?? "")).toBe(server.relay?.deviceName);
    // Six CLI runs and two memory-hard passphrase derivations: under two busy loops and other suites a clean-clone
    // run took more than the suite's 30 s, so this test gets its own bound (it asserts nothing about time).
  }, 120_000);

  it("seals its name again under a new key (ringback key)", async () => {
    relay = await startRelayProcess({ dataDir: homeOf("relay"), args: ["--open-signup"] });
    expect((await ringback("laptop", ["login", "--server", relay.url, "--name", "Zoë's laptop"])).code).toBe(
      0,
    );
    const before = await readDaemonConfig(homeOf("laptop"));
    const changed = await ringback("laptop", ["key", "--passphrase-stdin"], `${PASSPHRASE}\n`);
    expect(changed.code).toBe(0);
    const after = await readDaemonConfig(homeOf("laptop"));
    expect(after.e2e?.key).not.toBe(before.e2e?.key);
    const devices = await relayCall(relay.url, "GET", "/v1/devices", { token: after.relay?.deviceToken });
    const listed: string = devices.body.devices[0].name;
    expect(await openDeviceName(parseKey(after.e2e?.key ?? ""), listed)).toBe("Zoë's laptop");
    await expect(openDeviceName(parseKey(before.e2e?.key ?? ""), listed)).rejects.toMatchObject({
      code: "key_mismatch",
    });
    expect(`${changed.stdout}${changed.stderr}`).not.toContain("not sealed");
  });
});

describe("ringback pair", () => {
  it("prints the pairing link with the key in its fragment, a QR code, the code and its expiry", async () => {
    relay = await startRelayProcess({ dataDir: homeOf("relay"), args: ["--open-signup"] });
    await ringback("laptop", ["login", "--server", relay.url]);
    const key = (await readDaemonConfig(homeOf("laptop"))).e2e?.key ?? "";
    const pair = await ringback("laptop", ["pair"]);
    expect(pair.code).toBe(0);
    const link = pair.stdout.match(/^(http\S+#pair=\S+)$/m)?.[1] ?? "";
    const code = link.match(/#pair=(\d{12})&/)?.[1] ?? "";
    expect(link).toBe(`${relay.url}/#pair=${code}&key=${key}&server=${encodeURIComponent(relay.url)}`);
    expect(pair.stdout).toContain("▄");
    expect(pair.stdout).toContain(`the code ${code}`);
    expect(pair.stdout).toMatch(/Valid once, until/);
    const phone = await redeem(relay.url, code, "phone");
    expect(phone.accountId).toBe((await readDaemonConfig(homeOf("laptop"))).relay?.accountId);
  });

  it("says to log in first when this computer has no relay identity", async () => {
    const pair = await ringback("laptop", ["pair"]);
    expect(pair.code).toBe(1);
    expect(pair.stderr).toMatch(/not logged in to a relay yet: run `ringback login`/);
  });

  it("says why a relay did not answer and what to check, not a bare fetch failed", async () => {
    const blocked = await ringback("laptop", ["login", "--server", "http://127.0.0.1:1"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(
      'ringback: The relay at http://127.0.0.1:1 did not answer: its port is one browsers and Node.js refuse to connect to (a "bad port" of the Fetch standard): run the relay on another port.',
    );
    expect(blocked.stderr).not.toContain("fetch failed");
  });
});

describe("login and pairing through the running daemon", () => {
  it("logs in through POST /local/login, links at once, sends what waited, and keeps the identity through later settings writes", async () => {
    relay = await startRelayProcess({ dataDir: homeOf("relay"), args: ["--open-signup"] });
    const daemon = await startDaemonProcess(homeOf("laptop"));
    daemons.push(daemon);
    const localKey = await readLocalKey(homeOf("laptop"));
    // A report made before the login waits in the outbox: the daemon has no relay yet.
    const waiting = await postReport(daemon, localKey, {
      source: "claude-code",
      sessionId: "s-before-login",
      turnId: "t-1",
      cwd: homeOf("laptop"),
      text: "Finished before this computer had a relay.",
    });
    expect(waiting.status).toBe(202);
    const env = daemonEnv(homeOf("laptop"), { RINGBACK_PORT: String(daemon.port) });
    const login = await runCli(["login", "--server", relay.url], env);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain("The running daemon uses the new identity now.");
    await eventually(() => daemon.stderr().includes("relay link open"));
    // No restart: the waiting report reaches the relay (a device that joins later is sent the open calls).
    await eventually(
      async () => (await readLocalStatus(daemon, localKey)).outbox.lastReport?.state === "sent",
      {
        what: "the waiting report to be sent",
      },
    );
    const local = (path: string, method: string, body?: unknown) =>
      fetch(`${daemon.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // The daemon wrote daemon.json itself: a later write of its own keeps the identity.
    expect(
      (await local("/llm/settings", "PUT", { baseUrl: "http://127.0.0.1:9", apiKey: "k-1234", model: "m" }))
        .status,
    ).toBe(200);
    const config = await readDaemonConfig(homeOf("laptop"));
    expect(config.relay?.accountId).toMatch(/^acc_/);

    const pairing = PairingResult.parse(await (await local("/local/pairing", "POST")).json());
    expect(pairing).toMatchObject({
      serverUrl: relay.url,
      key: config.e2e?.key,
      code: expect.stringMatching(/^\d{12}$/),
    });
    const phone = await redeem(relay.url, pairing.code, "phone");

    // The new link answers a relayed request at once.
    const key = parseKey(pairing.key);
    const computerId = config.relay?.deviceId ?? "";
    const { requestId, sealed } = await sealSettingsRequest(key, computerId, {
      method: "GET",
      path: "/llm/settings",
    });
    const answer = await relayCall(relay.url, "POST", `/v1/devices/${computerId}/settings`, {
      token: phone.deviceToken,
      body: { requestId, sealed },
    });
    expect(answer.status).toBe(200);
    const result = SettingsResultPlaintext.parse(
      await openJson(key, aad.settingsResult(requestId), answer.body.sealed),
    );
    expect(result).toMatchObject({ status: 200, body: { channel: { model: "m" } } });

    const relogin = await local("/local/login", "POST", { serverUrl: relay.url, deviceName: "laptop again" });
    const second = LocalLoginResult.parse(await relogin.json());
    expect(second.deviceId).not.toBe(config.relay?.deviceId);
    expect(JSON.stringify(second)).not.toContain(
      (await readDaemonConfig(homeOf("laptop"))).relay?.deviceToken,
    );
    await eventually(() => daemon.stderr().split("relay link open").length === 3);
    const extra = await pairDevice(relay.url, phone.deviceToken, "browser");
    expect(extra.accountId).toBe(phone.accountId);
  });
});
