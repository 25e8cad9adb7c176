import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { request as httpsRequest } from "node:https";
import { connect } from "node:net";
import { join } from "node:path";
import {
  eventually,
  freePort,
  makeTemporaryDirectory,
  type StartedChild,
  startChild,
  type TemporaryDirectory,
} from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumHandle } from "../harness/chromium.ts";
import { Device } from "../harness/device.ts";
import { claudeStopPayload, runHook } from "../harness/hook-process.ts";
import { fromRoot } from "../harness/paths.ts";
import { launchTrustingChromium } from "../harness/trusting-chromium.ts";

// `pnpm start --lan` as a user runs it (the script itself, the built parts already there), its LAN address forced to
// 127.0.0.1 so the test needs no network: HTTPS with the local CA it makes, the CA handed out over plain HTTP, and a
// Chromium that trusts that CA pairing by the printed link and ringing.
const ADDRESS = "127.0.0.1";
let directory: TemporaryDirectory;
let start: StartedChild;
let relayPort: number;
let caPort: number;
let chromium: ChromiumHandle;

function startScript(options: readonly string[] = ["--lan", "--lan-address", ADDRESS]): StartedChild {
  return startChild({
    args: [fromRoot("scripts/start.mjs"), ...options],
    cwd: fromRoot("."),
    env: {
      PATH: process.env.PATH,
      HOME: join(directory.path, "home"),
      RINGBACK_HOME: join(directory.path, "home", ".ringback"),
      RINGBACK_RELAY_DATA: join(directory.path, "relay"),
      RINGBACK_RELAY_PORT: String(relayPort),
      RINGBACK_CA_PORT: String(caPort),
      RINGBACK_START_NO_BUILD: "1",
      RINGBACK_GATHER_SECONDS: "0",
    },
    name: "pnpm start --lan",
  });
}

/** Waits for the script's last line: everything it starts is up. */
async function untilStarted(): Promise<void> {
  await start.waitFor(() => start.output.includes("Press Ctrl-C to stop."), "it was started", 3_000);
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, ADDRESS);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

async function stopScript(): Promise<void> {
  await start?.stop("SIGTERM");
}

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  relayPort = await freePort();
  caPort = await freePort();
  start = startScript();
  await untilStarted();
}, 90_000);

afterAll(async () => {
  await chromium?.[Symbol.asyncDispose]();
  await stopScript();
  await directory?.remove();
});

describe("pnpm start --lan", () => {
  it("leads with the phone: the CA to trust, its fingerprint beside its QR code, then the pairing link", async () => {
    const caPath = join(directory.path, "relay", "lan-tls", "ca.crt");
    const ca = await readFile(caPath, "utf8");
    const fingerprint = new X509Certificate(ca).fingerprint256;
    const output = start.stdout;
    const steps = [
      "On your phone, on the same network as this computer:",
      `  1. Trust this computer's certificate authority (the relay serves HTTPS with it): open http://${ADDRESS}:${caPort}/`,
      "     Its SHA-256 fingerprint, to compare with the one the page and the phone show:",
      `     ${fingerprint}`,
      "Certificate Trust Settings",
      "Install a certificate › CA certificate",
      "  2. Open this link on the phone, or scan this QR code",
      `Relay and web app: https://${ADDRESS}:${relayPort}`,
    ];
    const positions = steps.map((step) => output.indexOf(step));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // The QR code of the CA page sits between the page's address and the fingerprint.
    expect(output.slice(positions[1], positions[2])).toMatch(/[▄▀]/);
  });

  it("hands out the CA (never its key) and a page with its fingerprint over plain HTTP, and serves HTTPS with it", async () => {
    const caPath = join(directory.path, "relay", "lan-tls", "ca.crt");
    const ca = await readFile(caPath, "utf8");
    // The CA, byte for byte, and the page a phone opens first, which shows the same fingerprint as the terminal.
    const served = await fetch(`http://${ADDRESS}:${caPort}/ringback-local-ca.crt`);
    expect(served.headers.get("content-type")).toBe("application/x-x509-ca-cert");
    expect(await served.text()).toBe(ca);
    const page = await (await fetch(`http://${ADDRESS}:${caPort}/`)).text();
    expect(page).toContain(new X509Certificate(ca).fingerprint256);
    expect(page).toContain('href="/ringback-local-ca.crt"');
    expect(page).toContain("User credentials");
    expect((await fetch(`http://${ADDRESS}:${caPort}/ca.key`)).status).toBe(404);
    // Limited to the address it serves, and short-lived.
    const text = execFileSync("openssl", ["x509", "-in", caPath, "-noout", "-text"], { encoding: "utf8" });
    expect(text).toMatch(
      /X509v3 Name Constraints: critical\s+Permitted:\s+IP:127\.0\.0\.1\/255\.255\.255\.255\s+DNS:localhost\n/,
    );
    const certificate = new X509Certificate(ca);
    expect(Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)).toBe(30 * 24 * 3600 * 1000);
    // The relay answers over HTTPS for a client that trusts that CA, and nothing over plain HTTP.
    const health = await new Promise<number>((resolve, reject) =>
      httpsRequest(`https://${ADDRESS}:${relayPort}/v1/health`, { ca }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on("error", reject)
        .end(),
    );
    expect(health).toBe(200);
    await expect(fetch(`http://${ADDRESS}:${relayPort}/v1/health`)).rejects.toThrow();
  });

  it("prints a pairing link to the https address, which pairs a browser that trusts the CA, and a report rings it", async () => {
    const link = /https:\/\/127\.0\.0\.1:\d+\/#\S+/.exec(start.output)?.[0];
    expect(link?.startsWith(`https://${ADDRESS}:${relayPort}/`)).toBe(true);
    chromium = await launchTrustingChromium({
      home: join(directory.path, "browser-home"),
      hostName: "ringback-lan.test",
      caCertificatePath: join(directory.path, "relay", "lan-tls", "ca.crt"),
    });
    await using phone = await Device.join(chromium.browser, "phone", link ?? "");
    expect(await phone.page.evaluate(() => window.isSecureContext)).toBe(true);
    const hook = await runHook(
      "claude-code",
      claudeStopPayload("Done on the LAN.", { cwd: directory.path }),
      {
        home: join(directory.path, "home", ".ringback"),
      },
    );
    expect(hook.stderr).toMatch(/took the report \(202\)/);
    await phone.waitForRinging();
  });

  it("keeps its CA across restarts, and stops every process it started", async () => {
    const before = await readFile(join(directory.path, "relay", "lan-tls", "ca.crt"), "utf8");
    await stopScript();
    await expect(fetch(`http://${ADDRESS}:${caPort}/ringback-local-ca.crt`)).rejects.toThrow();
    // The relay and the daemon it started stop with it: the relay's port is free again.
    await eventually(() => isPortFree(relayPort), { what: "the relay to stop", checks: 750 });
    start = startScript();
    await untilStarted();
    expect(await readFile(join(directory.path, "relay", "lan-tls", "ca.crt"), "utf8")).toBe(before);
    // The same CA: the phone that trusts it already is told it may go on.
    expect(start.stdout).toContain("already, with this fingerprint? Go on to 2.");
    // The same address: every device paired before reaches it.
    expect(start.stdout).not.toContain("do not reach this relay now");
  });

  it("says which paired devices a start at another address leaves behind, and how they join again", async () => {
    const lanUrl = `https://${ADDRESS}:${relayPort}`;
    const plainUrl = `http://${ADDRESS}:${relayPort}`;
    await stopScript();
    await eventually(() => isPortFree(relayPort), { what: "the relay to stop", checks: 750 });
    start = startScript(["--port", String(relayPort)]);
    await untilStarted();
    expect(start.stdout).toContain(`Relay and web app: ${plainUrl}`);
    expect(start.stdout).toContain(
      `Phones paired at ${lanUrl} (with --lan) do not reach this relay now: it serves this computer only.\n` +
        "To ring them, stop this (Ctrl-C) and run  npx --yes pnpm@",
    );

    await stopScript();
    await eventually(() => isPortFree(relayPort), { what: "the relay to stop", checks: 750 });
    start = startScript();
    await untilStarted();
    // A browser paired by the plain start's link (this computer's) is left behind at http://: the link below joins.
    const note = start.stdout.indexOf(
      `Browsers paired at ${plainUrl} do not reach this relay now: open the pairing link below in them to join again.`,
    );
    expect(note).toBeGreaterThan(0);
    expect(note).toBeLessThan(start.stdout.indexOf(`${lanUrl}/#pair=`));
  });
});
