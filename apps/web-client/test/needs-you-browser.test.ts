import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  type AwaySchedule,
  AwayScheduleUpdate,
  errorBody,
  type PermissionAsk,
  PermissionDecisionPlaintext,
  type Presence,
  PresenceUpdate,
} from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser, openPage } from "./built-app.js";
import { ASK_COMMAND, askFor, needsYouEvent } from "./fixtures.js";
import { installSpeechRecognition } from "./heard-speech.js";
import {
  COMPUTER_ID,
  DELIVERED,
  type NeedsYouRelay,
  type ReplySettlement,
  type SettleReply,
  startNeedsYouRelay,
} from "./needs-you-relay.js";
import { openSettingsSection } from "./settings-sections.js";
import type { StandInDaemon } from "./stand-in-computer.js";
import { accountKeyFrom } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 45_000 };
/** What the browser's speech recognition hears when Speak is tapped (the page's stand-in, heard-speech.ts). */
const SPOKEN = "use the staging database";

/** A decision the stand-in computer opened, with the device that sent it. */
interface OpenedDecision {
  readonly deviceId: string;
  readonly decision: PermissionDecisionPlaintext;
}

/**
 * The computer's daemon as the design has it: it opens a decision with its own computer id and the call's event id,
 * and takes the first one whose event and tool input digest are the ask's while the agent still waits; any other is
 * refused with a sealed reason in plain words.
 */
function standInComputer(key: () => Promise<E2eKey>) {
  const asks = new Map<string, { ask: PermissionAsk; isDecided: boolean }>();
  const opened: OpenedDecision[] = [];
  const presence: { current: Presence } = { current: { away: false, changedAt: null, changedBy: null } };
  const presenceRequests: string[] = [];
  const refuse = async (replyId: string, reason: string): Promise<ReplySettlement> => ({
    status: "failed",
    sealedReason: await sealJson(await key(), aad.replyError(replyId), { reason }),
    plaintextReason: null,
  });
  const settle: SettleReply = async (reply) => {
    const { replyId, sealed } = reply.request;
    const decision = PermissionDecisionPlaintext.parse(
      await openJson(await key(), aad.permissionDecisionTo(COMPUTER_ID, reply.eventId), sealed),
    );
    opened.push({ deviceId: reply.deviceId, decision });
    const pending = asks.get(reply.eventId);
    if (
      !pending ||
      decision.eventId !== reply.eventId ||
      decision.toolInputDigest !== pending.ask.toolInputDigest
    )
      return refuse(replyId, "this decision is not for this request");
    if (Date.now() >= Date.parse(pending.ask.expiresAt)) return refuse(replyId, "the agent stopped waiting");
    if (pending.isDecided) return refuse(replyId, "already decided");
    pending.isDecided = true;
    return DELIVERED;
  };
  const schedules: (AwaySchedule | null)[] = [];
  const daemon: StandInDaemon = (request) => {
    presenceRequests.push(`${request.method} ${request.path}`);
    if (request.path === "/presence/schedule" && request.method === "PUT") {
      // As the daemon works it out when the away time covers now and started after the switch was set.
      const { schedule } = AwayScheduleUpdate.parse(request.body);
      schedules.push(schedule);
      const mode = schedule?.periods[0]?.modeName;
      presence.current = {
        away: mode !== undefined,
        changedAt: new Date().toISOString(),
        changedBy: mode === undefined ? "Phone" : `the ring mode "${mode}"`,
        changedByMode: mode ?? null,
        schedule: schedule && { ...schedule, setAt: new Date().toISOString(), setBy: "a paired device" },
      };
      return { status: 200, body: presence.current };
    }
    if (request.path !== "/presence") return { status: 404, body: errorBody("not_found") };
    if (request.method === "PUT") {
      const { away } = PresenceUpdate.parse(request.body);
      presence.current = {
        ...presence.current,
        away,
        changedAt: new Date().toISOString(),
        changedBy: "Phone",
      };
    }
    return { status: 200, body: presence.current };
  };
  return { asks, opened, presence, presenceRequests, schedules, settle, daemon };
}

describe("a needs-you call in the built web app in Chromium, on two devices", () => {
  let relay: NeedsYouRelay;
  let browser: FileBrowser;
  let phone: Page;
  let tablet: Page;
  const accountKey = accountKeyFrom(PHRASE);
  const computer = standInComputer(accountKey);
  const pageErrors: string[] = [];
  let seq = 0;

  /** The computer raises an ask to run ASK_COMMAND, waited for until `expiresAt`; it was raised `ageMs` ago. */
  async function raiseAsk(
    eventId: string,
    options: { ageMs?: number; waitMs?: number } = {},
  ): Promise<PermissionAsk> {
    seq += 1;
    const occurredAt = new Date(Date.now() - (options.ageMs ?? 0));
    const ask = askFor(occurredAt, {
      ...(options.waitMs === undefined
        ? {}
        : { expiresAt: new Date(Date.now() + options.waitMs).toISOString() }),
      toolInputDigest: `${seq}`.padStart(64, "b"),
    });
    computer.asks.set(eventId, { ask, isDecided: false });
    relay.publish(await needsYouEvent(await accountKey(), eventId, occurredAt, ask, COMPUTER_ID));
    return ask;
  }

  const ringing = (page: Page, eventId: string) =>
    page.locator(`[data-testid="ringing-screen"][data-event-id="${eventId}"]`);
  const inCall = (page: Page, eventId: string) =>
    page.locator(`[data-testid="in-call-screen"][data-event-id="${eventId}"]`);
  const decisionsOf = (eventId: string) =>
    computer.opened.filter((entry) => entry.decision.eventId === eventId);

  async function hangUp(page: Page): Promise<void> {
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor(WAIT);
  }

  beforeAll(async () => {
    relay = await startNeedsYouRelay(DIST, accountKey, computer.settle, computer.daemon);
    browser = await chromiumForFile();
    const phoneOptions = {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: "en-US",
      timezoneId: "Asia/Tokyo",
    };
    phone = await openPage(browser, phoneOptions, pageErrors, WAIT.timeout);
    await phone.context().addInitScript(installSpeechRecognition, SPOKEN);
    tablet = await openPage(
      browser,
      { viewport: { width: 800, height: 1000 }, locale: "en-US" },
      pageErrors,
      WAIT.timeout,
    );
    await createAccount(phone, relay.origin, PHRASE, { isTouch: true, timeoutMs: WAIT.timeout });
    await createAccount(tablet, relay.origin, PHRASE, { timeoutMs: WAIT.timeout });
    for (const page of [phone, tablet])
      await page.locator('[data-testid="connection-status"][data-state="open"]').waitFor(WAIT);
  });

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it("rings with its own ring on both devices, saying Needs you, the agent and the project", async () => {
    await raiseAsk("needs_allow");
    for (const page of [phone, tablet]) {
      const screen = ringing(page, "needs_allow");
      await screen.waitFor(WAIT);
      expect(await screen.getAttribute("data-kind")).toBe("needs-you");
      expect(await screen.getAttribute("data-ringtone")).toBe("needsYou");
      expect(await screen.getAttribute("data-tone")).toBe("needs-you");
      expect(await screen.getByTestId("ringing-label").textContent()).toBe("Needs you");
      expect(await screen.getByTestId("caller").textContent()).toBe("Claude Code");
      expect(await screen.getByTestId("ask-project").textContent()).toBe("in project");
      expect(await screen.getByTestId("ringing-title").textContent()).toBe(
        "Claude Code needs you: run a command",
      );
    }
    await phone.screenshot({ path: `${ARTIFACTS}needs-you-ringing.png`, fullPage: true });
  });

  it("is answered on the phone, the tablet stops ringing, and Allow once sends a decision bound to the ask", async () => {
    await ringing(phone, "needs_allow").getByTestId("answer-button").tap();
    const screen = inCall(phone, "needs_allow");
    await screen.waitFor(WAIT);
    expect(await screen.getAttribute("data-kind")).toBe("needs-you");
    // The exact command, whole, and no reply box: the agent waits for a decision.
    expect(await screen.getByTestId("ask-card").locator("pre").textContent()).toBe(ASK_COMMAND);
    expect(await screen.getByTestId("in-call-reply").count()).toBe(0);
    await ringing(tablet, "needs_allow").waitFor({ state: "detached", ...WAIT });
    expect(relay.statusWrites).toContain("dev_phone needs_allow answered");

    await screen.getByTestId("allow-button").tap();
    const status = screen.getByTestId("needs-you-status");
    await expect.poll(() => status.textContent(), WAIT).toBe("Allowed on Phone");
    expect(await screen.getByTestId("allow-button").count()).toBe(0);
    await phone.screenshot({ path: `${ARTIFACTS}needs-you-allowed.png`, fullPage: true });

    const [sent] = decisionsOf("needs_allow");
    const ask = computer.asks.get("needs_allow")?.ask;
    expect(decisionsOf("needs_allow")).toHaveLength(1);
    expect(sent?.deviceId).toBe("dev_phone");
    expect(sent?.decision).toMatchObject({
      replyId: relay.replies.at(-1)?.request.replyId,
      eventId: "needs_allow",
      toolInputDigest: ask?.toolInputDigest,
      verdict: "allow",
      reason: null,
    });
    // Stamped like every request to the computer: sent just now, with a nonce.
    expect(Math.abs(Date.parse(sent?.decision.sentAt ?? "") - Date.now())).toBeLessThan(5 * 60_000);
    expect(sent?.decision.nonce.length).toBeGreaterThanOrEqual(16);
  });

  it("shows on the other device who decided", async () => {
    const outcome = tablet.locator('[data-testid="ask-outcome"][data-event-id="needs_allow"]');
    await expect
      .poll(() => outcome.textContent(), WAIT)
      .toBe("Claude Code needs you: run a command: Decided on Phone");
    await tablet.getByTestId("nav-calls").click();
    const row = tablet.locator('[data-testid="history-row"][data-event-id="needs_allow"]');
    await expect.poll(() => row.getByTestId("needs-you-status").textContent(), WAIT).toBe("Decided on Phone");
    await tablet.getByTestId("nav-home").click();
    await hangUp(phone);
  });

  it("denies with a typed and a spoken reason, which reaches the computer with the decision", async () => {
    await raiseAsk("needs_deny");
    await ringing(phone, "needs_deny").getByTestId("answer-button").tap();
    const screen = inCall(phone, "needs_deny");
    await screen.waitFor(WAIT);
    await screen.getByTestId("deny-reason").fill("Not on the main branch;");
    await screen.getByTestId("speak-reason").tap();
    await expect
      .poll(() => screen.getByTestId("deny-reason").inputValue(), WAIT)
      .toBe(`Not on the main branch; ${SPOKEN}`);
    await screen.getByTestId("deny-button").tap();
    await expect
      .poll(() => screen.getByTestId("needs-you-status").textContent(), WAIT)
      .toBe("Denied on Phone");
    // The outcome in place of the buttons and the reason: nothing faded is left to tap.
    expect(await screen.getByTestId("deny-button").count()).toBe(0);
    expect(await screen.getByTestId("deny-reason").count()).toBe(0);
    await phone.screenshot({ path: `${ARTIFACTS}needs-you-denied.png` });
    expect(decisionsOf("needs_deny").map((entry) => entry.decision)).toEqual([
      expect.objectContaining({
        eventId: "needs_deny",
        toolInputDigest: computer.asks.get("needs_deny")?.ask.toolInputDigest,
        verdict: "deny",
        reason: `Not on the main branch; ${SPOKEN}`,
      }),
    ]);
    await hangUp(phone);
  });

  it("shows the computer's reason when it refuses a decision, and lets another be tried", async () => {
    await raiseAsk("needs_taken");
    // Decided at the keyboard meanwhile: the computer refuses any decision from a device.
    const pending = computer.asks.get("needs_taken");
    if (pending) pending.isDecided = true;
    await ringing(tablet, "needs_taken").getByTestId("answer-button").click();
    const screen = inCall(tablet, "needs_taken");
    await screen.waitFor(WAIT);
    await screen.getByTestId("allow-button").click();
    await expect
      .poll(() => screen.getByTestId("needs-you-status").textContent(), WAIT)
      .toBe("Not taken: already decided");
    // The refusal may arrive before the send has settled on the page: the buttons come back once it has.
    await expect.poll(() => screen.getByTestId("allow-button").isEnabled(), WAIT).toBe(true);
    expect(decisionsOf("needs_taken").map((entry) => entry.deviceId)).toEqual(["dev_tablet"]);
    await hangUp(tablet);
  });

  it("takes Allow and Deny away, saying the agent stopped waiting, when it stops during the call", async () => {
    await raiseAsk("needs_live", { waitMs: 20_000 });
    await ringing(phone, "needs_live").getByTestId("answer-button").tap();
    const screen = inCall(phone, "needs_live");
    await screen.waitFor(WAIT);
    expect(await screen.getByTestId("allow-button").isEnabled()).toBe(true);
    // The page's own timer, at the ask's expiry: no decision was sent.
    await screen.locator('[data-testid="needs-you"][data-status="stopped-waiting"]').waitFor(WAIT);
    expect(await screen.getByTestId("needs-you-status").textContent()).toBe("The agent stopped waiting");
    // Only what can still work: the buttons and Deny's reason are gone, the outcome stands in their place.
    expect(await screen.getByTestId("allow-button").count()).toBe(0);
    expect(await screen.getByTestId("deny-button").count()).toBe(0);
    expect(await screen.getByTestId("deny-reason").count()).toBe(0);
    expect(decisionsOf("needs_live")).toEqual([]);
    await hangUp(phone);
  });

  it("does not ring for an ask whose agent stopped waiting before the device heard of it", async () => {
    await raiseAsk("needs_late", { ageMs: 6 * 60_000 });
    await phone.getByTestId("nav-calls").tap();
    const row = phone.locator('[data-testid="missed-row"][data-event-id="needs_late"]');
    await row.waitFor(WAIT);
    expect(await ringing(phone, "needs_late").count()).toBe(0);
    // Nothing to answer any more: the row says why, and offers the request to read instead of Answer.
    expect(await row.getByTestId("answer-missed").count()).toBe(0);
    expect(await row.getByTestId("needs-you-status").textContent()).toBe("The agent stopped waiting");
    await row.getByTestId("open-missed").tap();
    const screen = inCall(phone, "needs_late");
    await screen.waitFor(WAIT);
    expect(await screen.getByTestId("needs-you-status").textContent()).toBe("The agent stopped waiting");
    expect(await screen.getByTestId("allow-button").count()).toBe(0);
    // Hung up, the app is back on the calls page it answered from.
    await screen.getByTestId("hang-up-button").tap();
    await phone.getByTestId("calls-page").waitFor(WAIT);
  });

  it("turns I'm away on for the computer from the idle screen", async () => {
    await phone.getByTestId("nav-home").tap();
    const row = phone.locator(`[data-testid="presence-row"][data-computer-id="${COMPUTER_ID}"]`);
    await phone.locator(`[data-testid="presence-row"][data-away="false"]`).waitFor(WAIT);
    expect(await row.textContent()).toContain("Workstation");
    await row.getByTestId("away-switch").tap();
    await phone.locator(`[data-testid="presence-row"][data-away="true"][data-busy="false"]`).waitFor(WAIT);
    expect(computer.presence.current).toMatchObject({ away: true, changedBy: "Phone" });
    expect(computer.presenceRequests).toContain("PUT /presence");
    expect(pageErrors).toEqual([]);
  });

  it("sends the computer a ring mode's away hours with the phone's time zone, and says the mode set I'm away", async () => {
    await openSettingsSection(phone, "ringing", WAIT);
    const sleep = phone.locator('[data-testid="mode-row"][data-mode-id="sleep"]');
    await sleep.getByTestId("mode-edit").tap();
    const editor = phone.getByTestId("mode-editor");
    await editor.getByTestId("mode-away").check();
    // Sleep's hours do not ring: the editor says what that means for an ask made then.
    expect(await editor.getByTestId("mode-away-silent").textContent()).toContain("missed here");
    await editor.getByTestId("mode-on").check();
    await editor.getByTestId("save-mode").tap();
    await phone.waitForFunction(
      () => !document.querySelector('[data-testid="mode-editor"]'),
      undefined,
      WAIT,
    );
    expect(await sleep.textContent()).toContain("every day · 22:00–08:00 · silent · away");
    await expect.poll(() => computer.schedules.length, WAIT).toBe(1);
    expect(computer.schedules[0]).toEqual({
      timeZone: "Asia/Tokyo",
      periods: [
        { modeName: "Sleep", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start: "22:00", end: "08:00" }] },
      ],
      // Marked with the phone's own device id: the phone takes them back from a computer offline when they end.
      deviceId: expect.stringMatching(/\S/),
    });

    await phone.getByTestId("nav-home").tap();
    const row = phone.locator(`[data-testid="presence-row"][data-computer-id="${COMPUTER_ID}"]`);
    await row.getByTestId("presence-set-by").waitFor(WAIT);
    // The idle screen sends them again as it asks the computer (the phone's time zone may have changed).
    await expect.poll(() => computer.schedules.length, WAIT).toBeGreaterThanOrEqual(2);
    expect(await row.getByTestId("presence-set-by").textContent()).toMatch(
      /^Set by the ring mode "Sleep" at /,
    );

    // Turned off, the computer forgets the away hours (and the phone rings at night again for the next tests).
    await openSettingsSection(phone, "ringing", WAIT);
    await sleep.getByTestId("mode-toggle").uncheck();
    await expect.poll(() => computer.schedules.at(-1), WAIT).toBeNull();
    await phone.getByTestId("nav-home").tap();
    expect(pageErrors).toEqual([]);
  });

  it("fits a 320 px phone: the ringing screen, and Allow once and Deny whole and big", async () => {
    await phone.setViewportSize({ width: 320, height: 640 });
    await phone.waitForFunction(() => window.innerWidth === 320, undefined, WAIT);
    await raiseAsk("needs_narrow");
    await ringing(phone, "needs_narrow").waitFor(WAIT);
    expect(await documentWidth(phone)).toBeLessThanOrEqual(320);
    await phone.screenshot({ path: `${ARTIFACTS}needs-you-ringing-320.png`, fullPage: true });
    await ringing(phone, "needs_narrow").getByTestId("answer-button").tap();
    const screen = inCall(phone, "needs_narrow");
    await screen.waitFor(WAIT);
    expect(await documentWidth(phone)).toBeLessThanOrEqual(320);
    for (const button of ["allow-button", "deny-button"]) {
      const box = await screen.getByTestId(button).boundingBox();
      expect({ button, isInside: box !== null && box.x >= 0 && box.x + box.width <= 320 }).toEqual({
        button,
        isInside: true,
      });
      // A thumb's target: at least 48 px high and a third of the screen wide.
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(48);
      expect(box?.width ?? 0).toBeGreaterThanOrEqual(100);
    }
    await phone.screenshot({ path: `${ARTIFACTS}needs-you-in-call-320.png`, fullPage: true });
    await hangUp(phone);
    expect(pageErrors).toEqual([]);
  });
});

/** The page's width as laid out: wider than the screen means it scrolls sideways. */
function documentWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}
