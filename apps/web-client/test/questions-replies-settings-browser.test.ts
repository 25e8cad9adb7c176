import type { ServerResponse } from "node:http";
import { BUILTIN_TONES } from "@ringback/client";
import { aad, deriveKeyFromPassphrase, openJson, sealJson } from "@ringback/e2e-crypto";
import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { CANNOT_DECRYPT_REPLY } from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser, openPage } from "./built-app.js";
import { type CorsProxy, startCorsProxy } from "./cors-proxy.js";
import { sealedTrackerCall } from "./sealed-call.js";
import { openSettingsSection } from "./settings-sections.js";
import { startTestRelayServer, TEST_ACCOUNT_ID, type TestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
const MODEL_KEY = "sk-device-model";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 30_000 };

let seq = 0;

async function sendCall(stream: ServerResponse, eventId: string, text: string): Promise<void> {
  seq += 1;
  const event = await sealedTrackerCall(PHRASE, seq, eventId, text);
  stream.write(`id: ${seq}\nevent: call\ndata: ${JSON.stringify(event)}\n\n`);
}

describe("questions, replies, ring modes, ringtones and languages in the built web app in Chromium", () => {
  let relay: TestRelayServer;
  let model: FakeModel;
  let modelProxy: CorsProxy;
  let browser: FileBrowser;
  let page: Page;
  let stream: ServerResponse;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    relay = await startTestRelayServer(DIST);
    model = await startFakeModel({ apiKey: MODEL_KEY });
    modelProxy = await startCorsProxy(model.url);
    browser = await chromiumForFile();
    page = await openPage(browser, { viewport: { width: 420, height: 860 }, locale: "en-US" }, pageErrors);
    await createAccount(page, relay.origin, PHRASE, { timeoutMs: WAIT.timeout });
    stream = await relay.stream(0);
    stream.write(`id: 0\nevent: synced\ndata: ${JSON.stringify({ seq: 0 })}\n\n`);
  });

  afterAll(async () => {
    await browser?.close();
    await modelProxy?.close();
    await model?.close();
    await relay?.close();
  });

  it("switches the interface to Chinese and back, leaving the report language as it was", async () => {
    await openSettingsSection(page, "language-voice");
    const reportLanguage = await page.getByTestId("report-language").inputValue();
    await page.getByTestId("interface-language-zh").check();
    await expect.poll(() => page.getByTestId("nav-home").textContent(), WAIT).toBe("首页");
    expect(await page.getByTestId("nav-settings").textContent()).toBe("设置");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
    expect(await page.getByTestId("interface-language-settings").locator("h2").textContent()).toBe(
      "界面语言",
    );
    expect(await page.getByTestId("report-language").inputValue()).toBe(reportLanguage);
    await page.getByTestId("settings-index").click();
    expect(await page.getByTestId("settings-section-ringing").textContent()).toContain("响铃模式");
    await page.getByTestId("settings-section-ringing").click();
    expect(await page.getByTestId("ring-modes-settings").locator("h2").textContent()).toBe("响铃模式");
    await page.screenshot({ path: `${ARTIFACTS}settings-zh.png`, fullPage: true });
    await page.getByTestId("nav-calls").click();
    expect(await page.getByTestId("calls-page").locator("h2").first().textContent()).toBe("未接");
    await openSettingsSection(page, "language-voice");
    await page.getByTestId("interface-language-en").check();
    await expect.poll(() => page.getByTestId("nav-home").textContent(), WAIT).toBe("Home");
    expect(await page.getByTestId("report-language").inputValue()).toBe(reportLanguage);
  });

  it("words a model's failure in the interface language, and again in the other one when it changes", async () => {
    await openSettingsSection(page, "language-voice");
    await page.getByTestId("interface-language-zh").check();
    await page.getByTestId("settings-index").click();
    await page.getByTestId("settings-section-questions").click();
    const settings = page.getByTestId("question-model-settings");
    await settings.getByTestId("model-base-url").fill(modelProxy.url);
    await settings.getByTestId("model-api-key").fill("sk-not-the-key");
    await settings.getByTestId("list-models").click();
    const message = settings.getByTestId("model-message");
    await message.waitFor(WAIT);
    // The model's own words stay as it wrote them, inside a Chinese sentence.
    expect(await message.textContent()).toBe("模型返回了错误（401）：Incorrect API key provided.");
    await page.screenshot({ path: `${ARTIFACTS}model-error-zh.png`, fullPage: true });
    // The failure already on screen follows the interface language, changed in another section.
    await page.getByTestId("settings-index").click();
    await page.getByTestId("settings-section-language-voice").click();
    await page.getByTestId("interface-language-en").check();
    await page.getByTestId("settings-index").click();
    await page.getByTestId("settings-section-questions").click();
    await expect
      .poll(() => message.textContent(), WAIT)
      .toBe("The language model answered 401: Incorrect API key provided.");
    expect(await message.textContent()).not.toContain("sk-not-the-key");
    expect(pageErrors).toEqual([]);
  });

  it("asks the device's own model in a call: a failure is said in Chinese, then the answer streams in, and a decision is recorded", async () => {
    // In a Chinese interface: the answer still comes in the report language.
    await openSettingsSection(page, "language-voice");
    await page.getByTestId("interface-language-zh").check();
    await page.getByTestId("nav-home").click();
    await sendCall(stream, "e-ask", "Fixed the invoice rounding.\nAll 42 tests pass.");
    await page.getByTestId("ringing-screen").waitFor(WAIT);
    await page.getByTestId("answer-button").click();
    await page.getByTestId("in-call-screen").waitFor(WAIT);
    // No model yet: the screen says so and opens the setting in place.
    await page.getByTestId("no-question-channel").waitFor(WAIT);
    await page.getByTestId("open-model-settings").click();
    await page.getByTestId("model-base-url").fill(modelProxy.url);
    await page.getByTestId("model-api-key").fill(MODEL_KEY);
    await page.getByTestId("list-models").click();
    await page.getByTestId("model-list").waitFor(WAIT);
    await page.getByTestId("model-list").selectOption("fake-model");
    await page.getByTestId("save-model").click();
    await page.getByTestId("no-question-channel").waitFor({ state: "detached", ...WAIT });

    // The model refuses the first question: the reason is worded in the Chinese interface.
    model.script(answers.rateLimited());
    await page.getByTestId("question-input").fill("Which tests pass?");
    await page.getByTestId("ask-button").click();
    await page.getByTestId("answer-error").waitFor(WAIT);
    expect(await page.getByTestId("answer-error").textContent()).toBe(
      "问题未能得到回答：模型返回了错误（429）：Rate limit reached for requests.",
    );
    await page.screenshot({ path: `${ARTIFACTS}in-call-answer-error-zh.png`, fullPage: true });

    await page.getByTestId("question-input").fill("Which tests pass?");
    await page.getByTestId("ask-button").click();
    const answer = page.locator('[data-testid="conversation-entry"][data-role="assistant"]');
    await answer.first().waitFor(WAIT);
    expect(await answer.first().textContent()).toContain("Fake answer to: Which tests pass?");
    expect(await page.getByTestId("answer-error").count()).toBe(0);
    const chat = model.chatRequests().at(-1);
    expect(chat?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
    expect(chat?.body).toMatchObject({ model: "fake-model", stream: true });
    expect(JSON.stringify(chat?.body)).toContain("All 42 tests pass.");
    expect(JSON.stringify(chat?.body)).toContain("Answer in American English (en-US)");
    expect(await page.getByTestId("questions-panel").locator("h2").textContent()).toBe("就这份报告提问");

    await page.getByTestId("question-input").fill("Yes, ship it today.");
    await page.getByTestId("ask-button").click();
    await page.getByTestId("decision").waitFor(WAIT);
    expect(await page.getByTestId("decision").textContent()).toContain("Ship it today?");
    await expect.poll(() => answer.count(), WAIT).toBe(2);
    await page.screenshot({ path: `${ARTIFACTS}in-call-question.png`, fullPage: true });
    await page.getByTestId("hang-up-button").click();
    await page.getByTestId("idle-screen").waitFor(WAIT);
    await openSettingsSection(page, "language-voice");
    await page.getByTestId("interface-language-en").check();
    await expect.poll(() => page.getByTestId("nav-home").textContent(), WAIT).toBe("Home");
    expect(pageErrors).toEqual([]);
  });

  it("sends replies after hang-up: delivered, not decryptable by the computer, failed with its sealed reason", async () => {
    await page.getByTestId("nav-calls").click();
    const row = page.locator('[data-testid="history-row"][data-event-id="e-ask"]');
    // The call's history keeps what was said in the call, and the decision.
    expect(await row.getByTestId("history-decision").textContent()).toContain("Ship it today?");
    await row.getByTestId("reply-button").click();
    await row.getByTestId("reply-input").fill("Ship it, and tag the release.");
    await row.getByTestId("send-reply").click();
    const status = row.getByTestId("reply-status");
    await expect.poll(() => status.first().getAttribute("data-kind"), WAIT).toBe("delivered");
    expect(await status.first().textContent()).toBe("Delivered");
    const sent = relay.replies[0]!;
    expect(sent.eventId).toBe("e-ask");
    const key = await deriveKeyFromPassphrase(PHRASE, TEST_ACCOUNT_ID);
    // Addressed to the computer that reported the call, stamped with its time and a fresh nonce.
    expect(await openJson(key, aad.replyTo("dev_computer", "e-ask"), sent.request.sealed)).toEqual({
      replyId: sent.request.replyId,
      text: "Ship it, and tag the release.",
      sentAt: expect.any(String),
      nonce: expect.stringMatching(/^[\w-]{22}$/),
    });

    relay.replyOutcome = { status: "failed", sealedReason: null, plaintextReason: CANNOT_DECRYPT_REPLY };
    await row.getByTestId("reply-button").click();
    await row.getByTestId("reply-input").fill("One more thing.");
    await row.getByTestId("send-reply").click();
    await expect.poll(() => status.nth(1).getAttribute("data-kind"), WAIT).toBe("cannot-decrypt");
    expect(await status.nth(1).textContent()).toContain("could not decrypt");

    // The daemon's own reason is sealed for the reply: the page opens it with the device's key.
    relay.replyOutcome = async (reply) => ({
      status: "failed",
      sealedReason: await sealJson(key, aad.replyError(reply.request.replyId), {
        reason: "the session is gone",
      }),
      plaintextReason: null,
    });
    await row.getByTestId("reply-button").click();
    await row.getByTestId("reply-input").fill("Then start a new session.");
    await row.getByTestId("send-reply").click();
    await expect.poll(() => status.nth(2).getAttribute("data-kind"), WAIT).toBe("failed");
    expect(await status.nth(2).textContent()).toBe("Failed: the session is gone");
    await page.screenshot({ path: `${ARTIFACTS}reply-delivered.png`, fullPage: true });
    relay.replyOutcome = { status: "delivered", sealedReason: null, plaintextReason: null };
  });

  it("a ring mode that is silent now makes a report arrive as missed, and turning on another says which it turned off", async () => {
    await openSettingsSection(page, "ringing");
    await page.getByTestId("add-mode").click();
    const editor = page.getByTestId("mode-editor");
    await editor.getByTestId("mode-name").fill("Quiet");
    await editor.getByTestId("mode-rule").selectOption("do-not-ring-in");
    await editor.getByTestId("range-start-0").fill("00:00");
    await editor.getByTestId("range-end-0").fill("00:00");
    await editor.getByTestId("save-mode").click();
    await editor.waitFor({ state: "detached", ...WAIT });
    const quiet = page.locator('[data-testid="mode-row"]', { hasText: "Quiet" });
    expect(await quiet.getByTestId("mode-toggle").isChecked()).toBe(true);

    await page.getByTestId("nav-home").click();
    await page.getByTestId("ringing-paused").waitFor(WAIT);
    await sendCall(stream, "e-quiet", "Deployed while you slept.");
    await page.getByTestId("missed-banner").waitFor(WAIT);
    expect(await page.getByTestId("ringing-screen").count()).toBe(0);
    await page.getByTestId("missed-banner").click();
    const missed = page.locator('[data-testid="missed-row"][data-event-id="e-quiet"]');
    await missed.waitFor(WAIT);

    await openSettingsSection(page, "ringing");
    const sleep = page.locator('[data-testid="mode-row"][data-mode-id="sleep"]');
    await sleep.getByTestId("mode-toggle").check();
    await page.getByTestId("modes-turned-off").waitFor(WAIT);
    expect(await page.getByTestId("modes-turned-off").textContent()).toContain("Quiet");
    expect(await quiet.getByTestId("mode-toggle").isChecked()).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}ring-modes.png`, fullPage: true });
    await sleep.getByTestId("mode-toggle").uncheck();
    expect(pageErrors).toEqual([]);
  });

  it("keeps user ringtones on the device: deleting one in use asks and resets to the default; newest 5, show all, search above 8", async () => {
    const ringtones = page.getByTestId("ringtones-settings");
    const incoming = ringtones.getByTestId("ringtone-item-incoming");
    expect(await incoming.getByTestId("tone-option").count()).toBe(BUILTIN_TONES.length);
    await ringtones.getByTestId("tone-file").setInputFiles({
      name: "bells.wav",
      mimeType: "audio/wav",
      buffer: Buffer.alloc(2048, 1),
    });
    const bells = incoming.locator('[data-testid="tone-option"]', { hasText: "bells" });
    await bells.waitFor(WAIT);
    await bells.locator("input").check();
    const classic = incoming.locator('[data-testid="tone-option"][data-ref="builtin:classic"]');
    expect(await classic.locator("input").isChecked()).toBe(false);
    await ringtones.getByTestId("tone-file").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not audio"),
    });
    expect(await ringtones.getByTestId("tone-error").textContent()).toBe("The file is not audio.");

    const question = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.message());
        dialog.accept().catch(() => undefined);
      }),
    );
    await bells.getByTestId("tone-delete").click();
    expect(await question).toContain("in use for: Incoming call");
    await bells.waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => classic.locator("input").isChecked(), WAIT).toBe(true);

    // Six tones of the user's: the newest 5 are listed, the rest behind "show all"; above 8 tones, a search box.
    for (let index = 1; index <= 6; index++) {
      await ringtones.getByTestId("tone-file").setInputFiles({
        name: `tune-${index}.ogg`,
        mimeType: "audio/ogg",
        buffer: Buffer.alloc(512, index),
      });
      await incoming.locator('[data-testid="tone-option"]', { hasText: `tune-${index}` }).waitFor(WAIT);
      if (index === 1) await expect.poll(() => incoming.getByTestId("tone-search").count()).toBe(0);
    }
    expect(await incoming.getByTestId("tone-option").count()).toBe(BUILTIN_TONES.length + 5);
    expect(await incoming.getByTestId("tones-show-all").textContent()).toBe("Show all (1 more)");
    await incoming.getByTestId("tone-search").fill("tune-1");
    await expect.poll(() => incoming.getByTestId("tone-option").count(), WAIT).toBe(1);
    await incoming.getByTestId("tone-search").fill("");
    await incoming.getByTestId("tones-show-all").click();
    await expect.poll(() => incoming.getByTestId("tone-option").count(), WAIT).toBe(BUILTIN_TONES.length + 6);
    expect(pageErrors).toEqual([]);
  });
});
