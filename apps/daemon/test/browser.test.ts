import { existsSync } from "node:fs";
import { createServer } from "node:http";
import {
  CHROMIUM_PATH,
  eventually,
  type LoopbackServer,
  listenOnLoopback,
  type ScriptedRelay,
} from "@ringback/test-kit";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, postReport, readLocalKey, readLocalStatus } from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

/** A headless Chromium (the kit's CHROMIUM_PATH). Without one these tests are skipped, and say so. */
const hasChromium = existsSync(CHROMIUM_PATH);

const report = {
  source: "claude-code",
  sessionId: "web-attack",
  turnId: "t1",
  cwd: "/tmp",
  text: "Ring the phone",
};

let home: RelayedHome;
let relay: ScriptedRelay;
let daemon: DaemonProcess;
let page: LoopbackServer;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  home = await makeRelayedHome();
  relay = home.relay;
  daemon = await home.startDaemon();
  // Another origin on the same computer (another port), as a web page the user happens to visit.
  const pageServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html>
      <form id="form" method="POST" action="${daemon.url}/report" enctype="text/plain">
        <input name='{"a":"' value='"}'>
      </form>`);
  });
  page = await listenOnLoopback(pageServer);
  pageUrl = `${page.origin}/`;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox"] });
}, 60_000);

afterAll(async () => {
  if (!hasChromium) return;
  await browser?.close();
  await page?.close();
  await home?.[Symbol.asyncDispose]();
});

describe.skipIf(!hasChromium)("a web page in a real browser", () => {
  it("cannot get a report accepted, even knowing the local key", async () => {
    const localKey = await readLocalKey(home.path);
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    const outcomes = await tab.evaluate(
      async ({ target, key, body }) => {
        const attempt = async (init: RequestInit) => {
          try {
            const response = await fetch(target, init);
            return response.type === "opaque" ? "opaque" : String(response.status);
          } catch {
            return "blocked";
          }
        };
        return {
          // A "simple" request: no preflight, so the daemon itself must refuse it.
          simple: await attempt({
            method: "POST",
            mode: "no-cors",
            body,
            headers: { "content-type": "text/plain" },
          }),
          // JSON with the key (as if it leaked): the preflight is refused.
          withKey: await attempt({
            method: "POST",
            body,
            headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          }),
          // The test's types are Node's (no DOM lib): the page's navigator is described here.
          beacon: (navigator as unknown as { sendBeacon(url: string, data: string): boolean }).sendBeacon(
            target,
            body,
          ),
        };
      },
      { target: `${daemon.url}/report`, key: localKey, body: JSON.stringify(report) },
    );
    expect(outcomes.simple).toBe("opaque");
    expect(outcomes.withKey).toBe("blocked");

    const [formResponse] = await Promise.all([
      tab.waitForNavigation(),
      tab.evaluate('document.getElementById("form").submit()'),
    ]);
    expect(formResponse?.status()).toBe(403);
    expect(await formResponse?.json()).toMatchObject({ error: { code: "origin_not_allowed" } });

    // The browser's attempts reached the daemon and were refused for their Origin...
    await eventually(
      () =>
        (daemon.stderr().match(/refused (POST|OPTIONS) \/report: 403 origin_not_allowed/g) ?? []).length >= 3,
    );
    // ...while a local process with the key is accepted, so nothing else was in the way.
    expect((await postReport(daemon, localKey, { ...report, turnId: "native" })).status).toBe(202);
    await eventually(() => relay.posts.length === 1, { on: relay.changes });
    // Every browser request was answered 403 above; once the outbox holds nothing, no other report can follow.
    await eventually(async () => (await readLocalStatus(daemon, localKey)).outbox.waiting === 0);
    expect(relay.posts).toHaveLength(1);
    expect(daemon.stderr().match(/report evt_\w+ accepted/g)).toHaveLength(1);
    await tab.close();
  });
  it("cannot forge the daemon's log lines through the paths it requests", async () => {
    // What the daemon writes when it takes a report: the line a forger would like to plant.
    const forged = "ringback: report evt_forged accepted";
    // Line break, carriage return, a terminal escape that clears the screen, a bidi override; then 10,000 more.
    const path = `/%0D%0A${encodeURIComponent(forged)}%1B%5B2J%E2%80%AE`;
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    await tab.evaluate(
      async ({ target, long }) => {
        await fetch(target, { method: "POST", mode: "no-cors", body: "{}" }).catch(() => undefined);
        await fetch(`${target}${long}`, { method: "POST", mode: "no-cors", body: "{}" }).catch(
          () => undefined,
        );
      },
      { target: `${daemon.url}${path}`, long: "A".repeat(10_000) },
    );
    // The two refusals' lines are in once two lines end with their answer (the other test's name /report).
    const refused = () =>
      daemon
        .stderr()
        .split("\n")
        .filter((line) => line.endsWith(": 403 origin_not_allowed") && !line.includes("/report"));
    await eventually(() => refused().length >= 2);
    const lines = daemon.stderr().split("\n").slice(0, -1);
    for (const line of lines) expect(line.startsWith("ringback: ")).toBe(true);
    expect(lines.filter((line) => line.startsWith(forged))).toEqual([]);
    for (const raw of ["\r", "\x1b", "\u202e"]) expect(daemon.stderr()).not.toContain(raw);
    const [short, long] = refused();
    expect(short).toBe(`ringback: refused POST ${path}: 403 origin_not_allowed`);
    expect(long).toMatch(/\.\.\.\(\+\d+ chars\): 403 origin_not_allowed$/);
    expect(long?.length).toBeLessThan(300);
    await tab.close();
  });
});
