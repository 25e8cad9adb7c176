import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PairingResult } from "@ringback/protocol";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@ringback/test-kit";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relayWebAppDir } from "./support/installed-bins.js";
import { expectTheAllowRan, expectTheDenyReachedTheModel } from "./support/permission-outcomes.js";
import { type AgentUnderTest, CLAUDE, CODEX, startTurn, whileRunning } from "./support/permission-turn.js";
import { type RelayedAgentSetup, startRelayedAgentSetup } from "./support/relayed-setup.js";
import { ASK, markerExists } from "./support/scripted-ask.js";

/** An agent turn held by a permission ask, with the relay, the daemon and Chromium, on a busy machine. */
const TEST_TIMEOUT_MS = 900_000;
/** Generous, for a shared and busy machine: how long the page may take for what it shows; nothing is timed. */
const WAIT = { timeout: 60_000 };
/** The ask comes once the agent has started, asked the model and run its hook: a cold start of its binary. */
const ASK_WAIT = { timeout: 180_000 };
/** Screenshots this file keeps (git-ignored, as every package's `test-artifacts/`). */
const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

/** The name typed for the browser when it joins: the page says who decided with it. */
const PHONE_NAME = "Phone";
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-US" };

let browser: Browser;

beforeAll(async () => {
  expect(existsSync(CHROMIUM_PATH), `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`).toBe(true);
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
});

afterAll(async () => {
  await browser?.close();
});

/** A phone joined to the setup's account through the link `ringback pair --json` printed, in a context of its own. */
interface JoinedPhone extends AsyncDisposable {
  page: Page;
  /** The page's uncaught errors: none expected. */
  errors: string[];
}

/**
 * The relay serves the web app it ships; the phone opens the pairing link the computer printed (the relay's own
 * address, the code and key in the fragment), joins as "Phone" with `join-with-link`, waits for its stream to be
 * open, and is tapped once (browsers keep a page silent until a gesture; the app takes the first one).
 */
async function joinPhone(setup: RelayedAgentSetup): Promise<JoinedPhone> {
  const served = await fetch(`${setup.relay.url}/`);
  expect(served.status).toBe(200);
  expect(await served.text()).toBe(readFileSync(join(relayWebAppDir(), "index.html"), "utf8"));
  const pairing = PairingResult.parse(JSON.parse(await setup.ringback("pair", "--json")));
  expect(pairing.link.startsWith(`${setup.relay.url}/#`)).toBe(true);
  const context: BrowserContext = await browser.newContext(PHONE);
  const close = () => context.close();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT.timeout);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(pairing.link);
    await page.locator('[data-testid="welcome-screen"][data-opened-from="link"]').waitFor(WAIT);
    const join = page.getByTestId("link-join");
    await join.locator("input").fill(PHONE_NAME);
    await join.getByTestId("join-with-link").tap();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    await page.locator('[data-testid="connection-status"][data-state="open"]').waitFor(WAIT);
    // The gesture that lets the page ring out loud: a tap on something that does nothing else.
    await page.getByTestId("connection-status").tap();
    return { page, errors, [Symbol.asyncDispose]: close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Starts the agent's turn, waits for the phone to ring with its "needs you" call (the call the stand-in device
 * opened too, with the exact command), taps Answer, and returns the in-call screen showing the ask, with the
 * running turn.
 */
async function answerTheAsk(
  agent: AgentUnderTest,
  setup: RelayedAgentSetup,
  page: Page,
  screenshot?: string,
) {
  const running = startTurn(agent, setup);
  const opened = await whileRunning(running, setup.device.waitForAsk());
  expect(opened.ask).toMatchObject({ toolName: "Bash", toolInput: { command: ASK.command } });
  const { eventId } = opened.event;
  const ringing = page.locator(`[data-testid="ringing-screen"][data-event-id="${eventId}"]`);
  await whileRunning(running, ringing.waitFor(ASK_WAIT));
  expect(await ringing.getAttribute("data-kind")).toBe("needs-you");
  expect(await ringing.getByTestId("ringing-label").textContent()).toBe("Needs you");
  expect(await ringing.getByTestId("caller").textContent()).toBe(agent.name);
  expect(await ringing.getByTestId("ask-project").textContent()).toBe("in shop-api");
  // The page had its gesture (the Join tap already gives one; the extra tap stands for a person's first touch):
  // it rings out loud, with no "sound is blocked" button on the ringing screen.
  expect(await ringing.locator(".sound-blocked").count()).toBe(0);
  expect(markerExists(setup)).toBe(false);

  await ringing.getByTestId("answer-button").tap();
  const screen = page.locator(`[data-testid="in-call-screen"][data-event-id="${eventId}"]`);
  await screen.waitFor(WAIT);
  expect(await screen.getAttribute("data-kind")).toBe("needs-you");
  await screen.locator('[data-testid="needs-you"][data-status="waiting"]').waitFor(WAIT);
  expect(await screen.getByTestId("ask-card").locator("pre").allTextContents()).toContain(ASK.command);
  expect(await screen.getByTestId("ask-last-words").textContent()).toBe(ASK.lastWords);
  if (screenshot !== undefined) await page.screenshot({ path: `${ARTIFACTS}${screenshot}`, fullPage: true });
  // The stand-in device sees the browser win the call.
  const answered = await setup.device.waitForCallStatus(eventId, "answered");
  expect(answered.deviceId).not.toBeNull();
  return { running, screen };
}

const statusOf = (screen: Locator) => screen.getByTestId("needs-you-status");

describe.each([CLAUDE, CODEX])(
  "$kind, the genuine CLI, asking permission while away: the built web app in Chromium decides",
  (agent) => {
    it(
      "rings the phone; Answer, Allow once: the command runs, the agent exits 0, the phone says it was allowed",
      async () => {
        await using setup = await startRelayedAgentSetup();
        await setup.ringback("away", "on");
        await using phone = await joinPhone(setup);

        const { running, screen } = await answerTheAsk(
          agent,
          setup,
          phone.page,
          `agent-cli-${agent.kind}-needs-you-in-call.png`,
        );
        await screen.getByTestId("allow-button").tap();
        const turn = await running;

        expect(turn.result.code).toBe(0);
        expectTheAllowRan(setup, turn.finalText);
        await expect.poll(() => statusOf(screen).textContent(), WAIT).toBe(`Allowed on ${PHONE_NAME}`);
        // Decided: the outcome stands in place of the buttons, which could no longer do anything.
        expect(await screen.getByTestId("allow-button").count()).toBe(0);
        await phone.page.screenshot({
          path: `${ARTIFACTS}agent-cli-${agent.kind}-needs-you-allowed.png`,
          fullPage: true,
        });
        expect(phone.errors).toEqual([]);
        expect(setup.trap.attempts).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "rings the phone; Answer, a typed reason, Deny: the command does not run and the model reads the reason",
      async () => {
        await using setup = await startRelayedAgentSetup();
        await setup.ringback("away", "on");
        await using phone = await joinPhone(setup);

        const { running, screen } = await answerTheAsk(agent, setup, phone.page);
        await screen.getByTestId("deny-reason").fill(ASK.denyReason);
        await screen.getByTestId("deny-button").tap();
        const turn = await running;

        expect(turn.result.code).toBe(0);
        expectTheDenyReachedTheModel(agent.kind, setup, turn.finalText);
        await expect.poll(() => statusOf(screen).textContent(), WAIT).toBe(`Denied on ${PHONE_NAME}`);
        expect(phone.errors).toEqual([]);
        expect(setup.trap.attempts).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  },
);
