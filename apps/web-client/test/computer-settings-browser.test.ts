import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import type { SettingsRequestPlaintext } from "@ringback/protocol";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser, openPage } from "./built-app.js";
import { COMPUTER_ID, type DispatchRelayServer, startDispatchRelayServer } from "./dispatch-relay-server.js";
import {
  type EscalationBackedComputer,
  startEscalationBackedComputer,
} from "./escalation-backed-computer.js";
import { type SettingsBackedState, settingsBackedDaemon, trackerAccount } from "./settings-backed-daemon.js";
import { openSettingsSection } from "./settings-sections.js";
import { accountKeyFrom, startTestRelayServer } from "./test-relay-server.js";

const PHRASE = "correct horse battery staple";
const MODEL_KEY = "sk-brief-model-secret-9876";
/** The key the fake model accepts for the connection test; any other gets its 401. */
const TESTED_MODEL_KEY = "sk-tested-model-secret-5432";
const LAPTOP_ID = "dev_laptop";
/** The channels' accounts the stand-ins know; the Telegram bot token typed on the phone is not this one. */
const CHANNEL_ACCOUNTS = {
  pushover: { appToken: "escapptoken0000000000000000000", userKey: "escuserkey00000000000000000000" },
  telegram: { botToken: "7:realbottoken", chatId: "42" },
  twilio: { accountSid: `AC${"d".repeat(32)}`, authToken: "escalationtwilio" },
};
const WRONG_BOT_TOKEN = "7:typedwrongbot";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT = { timeout: 45_000 };

/** The device's watched workspaces as the app keeps them (idb-keyval's default store). */
function storedWatchedWorkspaces(page: Page): Promise<unknown> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("keyval-store");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction("keyval").objectStore("keyval").get("watchedWorkspaces");
          read.onsuccess = () => resolve(read.result);
          read.onerror = () => reject(read.error);
        };
      }),
  );
}

describe("Settings › Your computer in the built web app in Chromium", () => {
  let fake: FakeMultica;
  let model: FakeModel;
  let server: DispatchRelayServer;
  let browser: FileBrowser;
  let page: Page;
  let state: SettingsBackedState;
  let token: string;
  let workspaces: { ring: string; docs: string };
  let computer: EscalationBackedComputer;
  const requests: SettingsRequestPlaintext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    fake = await startFakeMultica();
    model = await startFakeModel({ apiKey: TESTED_MODEL_KEY });
    ({ token, workspaceIds: workspaces } = trackerAccount(fake));
    const backed = settingsBackedDaemon({ trackerUrl: fake.url });
    state = backed.state;
    computer = await startEscalationBackedComputer(CHANNEL_ACCOUNTS);
    server = await startDispatchRelayServer(
      DIST,
      accountKeyFrom(PHRASE),
      (request) => {
        requests.push(request);
        return computer.answer(request) ?? backed.daemon(request);
      },
      // Listed first and offline: the app still picks the computer that is online.
      { otherComputers: [{ id: LAPTOP_ID, name: "Laptop", online: false }] },
    );
    browser = await chromiumForFile();
    page = await openPage(
      browser,
      { viewport: { width: 420, height: 900 }, locale: "en-US" },
      pageErrors,
      WAIT.timeout,
    );
    await createAccount(page, server.origin, PHRASE, { timeoutMs: WAIT.timeout });
    await openSettingsSection(page, "computer");
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    await model?.close();
    await computer?.[Symbol.asyncDispose]();
  });

  it("lists the account's computers with their online state and talks to the one online", async () => {
    await page.locator('[data-testid="computer-settings"][data-state="listed"]').waitFor(WAIT);
    const rows = page.getByTestId("computer-row");
    expect(await rows.count()).toBe(2);
    const laptop = page.locator(`[data-testid="computer-row"][data-computer-id="${LAPTOP_ID}"]`);
    const workstation = page.locator(`[data-testid="computer-row"][data-computer-id="${COMPUTER_ID}"]`);
    expect(await laptop.getAttribute("data-online")).toBe("false");
    expect(await laptop.textContent()).toContain("offline");
    expect(await workstation.getAttribute("data-chosen")).toBe("true");
    // First install: nothing saved on the computer, no default token.
    await page.locator('[data-testid="tracker-settings"][data-state="empty"]').waitFor(WAIT);
    expect(await page.getByTestId("tracker-token").inputValue()).toBe("");
  });

  it("says the computer is offline after choosing the offline one, and works again with the other", async () => {
    const laptop = page.locator(`[data-testid="computer-row"][data-computer-id="${LAPTOP_ID}"]`);
    await laptop.getByTestId("choose-computer").click();
    await page.locator('[data-testid="tracker-problem"][data-kind="computer-offline"]').waitFor(WAIT);
    expect(await page.getByTestId("tracker-problem").textContent()).toContain("Your computer is offline");
    await page
      .locator(`[data-testid="computer-row"][data-computer-id="${COMPUTER_ID}"]`)
      .getByTestId("choose-computer")
      .click();
    await page.locator('[data-testid="tracker-settings"][data-state="empty"]').waitFor(WAIT);
  });

  it("shows an invalid tracker token as invalid", async () => {
    await page.getByTestId("tracker-token").fill("mul_not_a_real_token");
    await page.getByTestId("validate-token").click();
    await page.locator('[data-testid="tracker-problem"][data-kind="invalid-tracker-token"]').waitFor(WAIT);
    expect(await page.getByTestId("tracker-problem").textContent()).toBe("The tracker token is not valid.");
    expect(state.token).toBeNull();
  });

  it("checks the token against the tracker, saves two workspaces, then shows only the token's hint", async () => {
    await page.getByTestId("tracker-token").fill(token);
    await page.getByTestId("validate-token").click();
    const choices = page.getByTestId("tracker-workspace");
    await choices.first().waitFor(WAIT);
    expect(await page.getByTestId("workspace-choice").textContent()).toContain("Ringback");
    expect(await choices.count()).toBe(2);
    await page.locator(`[data-workspace-id="${workspaces.ring}"]`).check();
    await page.locator(`[data-workspace-id="${workspaces.docs}"]`).check();
    await page.getByTestId("save-tracker").click();

    await page.locator('[data-testid="tracker-settings"][data-state="saved"]').waitFor(WAIT);
    expect(state).toMatchObject({ token, workspaces: [workspaces.ring, workspaces.docs] });
    expect(await page.getByTestId("tracker-token-hint").textContent()).toMatch(/^Token: \*{4}/);
    expect(await page.getByTestId("tracker-token").count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    const watched = page.getByTestId("watched-workspace");
    expect(await watched.count()).toBe(2);
    expect(await watched.first().textContent()).toContain("Ringback");
    expect(await watched.first().getAttribute("data-state")).toBe("connected");
    // Calls name the workspace once several are watched: the device keeps them.
    await expect.poll(() => storedWatchedWorkspaces(page), WAIT).toEqual([workspaces.ring, workspaces.docs]);
    await page.getByTestId("computer-settings").screenshot({ path: `${ARTIFACTS}computer-choice.png` });
    await page.getByTestId("tracker-settings").screenshot({ path: `${ARTIFACTS}computer-tracker-saved.png` });
  });

  it("changes the workspaces without the token", async () => {
    await page.getByTestId("change-workspaces").click();
    await page.getByTestId("workspace-choice").waitFor(WAIT);
    expect(requests.at(-1)).toEqual({ method: "POST", path: "/tracker/workspaces", body: {} });
    expect(await page.locator(`[data-workspace-id="${workspaces.docs}"]`).isChecked()).toBe(true);
    await page.locator(`[data-workspace-id="${workspaces.docs}"]`).uncheck();
    await page.getByTestId("save-tracker").click();
    await expect.poll(() => page.getByTestId("watched-workspace").count(), WAIT).toBe(1);
    const put = requests.filter(
      (request) => request.method === "PUT" && request.path === "/tracker/settings",
    );
    expect(put.at(-1)?.body).toEqual({ workspaceIds: [workspaces.ring] });
    expect(state).toMatchObject({ token, workspaces: [workspaces.ring] });
    await expect.poll(() => storedWatchedWorkspaces(page), WAIT).toEqual([workspaces.ring]);
  });

  it("saves the computer's language model; the key is never shown again, only its hint", async () => {
    await page.locator('[data-testid="computer-model-settings"][data-state="empty"]').waitFor(WAIT);
    await page.getByTestId("computer-model-base-url").fill("https://models.example/v1");
    await page.getByTestId("computer-model-name").fill("brief-model");
    await page.getByTestId("computer-model-key").fill(MODEL_KEY);
    await page.getByTestId("computer-model-structured-output").selectOption("json_object");
    await page.getByTestId("save-computer-model").click();
    await page.locator('[data-testid="computer-model-settings"][data-state="saved"]').waitFor(WAIT);
    expect(state.llm).toEqual({
      baseUrl: "https://models.example/v1",
      model: "brief-model",
      apiKey: MODEL_KEY,
      structuredOutput: "json_object",
    });
    expect(await page.getByTestId("computer-model-saved").textContent()).toBe(
      "Saved: brief-model, key ****9876",
    );
    expect(await page.getByTestId("computer-model-key").inputValue()).toBe("");
    expect(await page.content()).not.toContain(MODEL_KEY);

    // Opened again: address, model and structured output come back, the key does not.
    await page.reload();
    await openSettingsSection(page, "computer");
    await page.locator('[data-testid="computer-model-settings"][data-state="saved"]').waitFor(WAIT);
    expect(await page.getByTestId("computer-model-name").inputValue()).toBe("brief-model");
    expect(await page.getByTestId("computer-model-structured-output").inputValue()).toBe("json_object");
    expect(await page.getByTestId("computer-model-key").inputValue()).toBe("");
    expect(await page.getByTestId("computer-model-key").getAttribute("placeholder")).toContain("****9876");
    expect(await page.content()).not.toContain(MODEL_KEY);
    await page
      .getByTestId("computer-model-settings")
      .screenshot({ path: `${ARTIFACTS}computer-model-saved.png` });
  });

  it("tests the typed model through the computer: a working one shows Works, a 401 shows the reason", async () => {
    const saved = structuredClone(state.llm);
    await page.locator('[data-testid="computer-model-settings"][data-state="saved"]').waitFor(WAIT);
    await page.getByTestId("computer-model-base-url").fill(model.url);
    await page.getByTestId("computer-model-name").fill("fake-model");
    await page.getByTestId("computer-model-key").fill(TESTED_MODEL_KEY);
    await page.getByTestId("test-computer-model").click();
    const result = page.getByTestId("computer-model-test-result");
    await page.locator('[data-testid="computer-model-test-result"][data-ok="true"]').waitFor(WAIT);
    expect(await result.textContent()).toMatch(/^Works: fake-model, \d+ ms$/);
    expect(model.chatRequests().at(-1)?.headers.authorization).toBe(`Bearer ${TESTED_MODEL_KEY}`);

    await page.getByTestId("computer-model-key").fill("sk-not-the-right-key-0000");
    await page.getByTestId("test-computer-model").click();
    await page.locator('[data-testid="computer-model-test-result"][data-ok="false"]').waitFor(WAIT);
    expect(await result.textContent()).toBe(
      "Does not work: The language model answered HTTP 401: Incorrect API key provided.",
    );
    // A test saves nothing, and no key reaches the page.
    expect(state.llm).toEqual(saved);
    expect(await page.content()).not.toContain(TESTED_MODEL_KEY);
    await page
      .getByTestId("computer-model-settings")
      .screenshot({ path: `${ARTIFACTS}computer-model-test-failed.png` });
  });

  it("sets the model's two time limits in seconds, shows the default for the address, and goes back to it", async () => {
    const timeout = page.getByTestId("computer-model-timeout-seconds");
    const noProgress = page.getByTestId("computer-model-no-progress-seconds");
    await page.getByTestId("computer-model-base-url").fill("https://models.example/v1");
    // Nothing set: the default of a hosted model, 2 min and 30 s, shown and not editable.
    expect(await page.getByTestId("computer-model-timeout-default").isChecked()).toBe(true);
    expect(await timeout.inputValue()).toBe("120");
    expect(await timeout.isDisabled()).toBe(true);
    expect(await noProgress.inputValue()).toBe("30");
    expect(await page.getByTestId("computer-model-timeout").textContent()).toContain(
      "120 s for a hosted model",
    );
    // A model on this computer gets 10 min and 60 s.
    await page.getByTestId("computer-model-base-url").fill(model.url);
    expect(await timeout.inputValue()).toBe("600");
    expect(await noProgress.inputValue()).toBe("60");
    expect(await page.getByTestId("computer-model-no-progress").textContent()).toContain(
      "60 s for a model on your computer or network",
    );

    // Leaving the default starts from it; a limit outside 1 s to 1 h is refused before asking the computer.
    await page.getByTestId("computer-model-timeout-default").uncheck();
    expect(await timeout.isDisabled()).toBe(false);
    expect(await timeout.inputValue()).toBe("600");
    await timeout.fill("7200");
    const before = requests.length;
    await page.getByTestId("save-computer-model").click();
    await page.locator('[data-testid="computer-model-problem"][data-kind="model-limit"]').waitFor(WAIT);
    expect(await page.getByTestId("computer-model-problem").textContent()).toBe(
      "Each time limit is a number of seconds from 1 to 3600.",
    );
    expect(requests.length).toBe(before);

    // The connection test runs with the typed limit and says how long a typical and a long report take against
    // it: this model reads for a second, then writes a token every 30 ms, so neither fits 10 s.
    await timeout.fill("10");
    await page.getByTestId("computer-model-name").fill("fake-model");
    await page.getByTestId("computer-model-key").fill(TESTED_MODEL_KEY);
    model.script(answers.streamed({ firstPieceMs: 1000, pieceMs: 30 }));
    await page.getByTestId("test-computer-model").click();
    const timing = page.locator('[data-testid="computer-model-timing"][data-advice="raise-timeout"]');
    await timing.waitFor(WAIT);
    expect(requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/llm/test",
      body: { timeoutMs: 10_000, noProgressTimeoutMs: null },
    });
    expect(await timing.textContent()).toMatch(
      /It reads [\d.]+ prompt tokens\/s and writes [\d.]+ tokens\/s\./,
    );
    expect(await timing.textContent()).toContain(
      "Tested with an overall limit of 10 s, giving up after 60 s",
    );
    const reports = page.getByTestId("computer-model-report-time");
    expect(await reports.allTextContents()).toEqual([
      expect.stringMatching(
        /^A typical report \(about 30 lines\): about [\d.]+ s, too long for the 10 s limit\.$/,
      ),
      expect.stringMatching(
        /^A long report \(about 350 lines\): about [\d.]+ s, too long for the 10 s limit\.$/,
      ),
    ]);
    const advice = await page.getByTestId("computer-model-advice").textContent();
    const suggested =
      /set the overall limit to at least (\d+) s, or choose a smaller or faster model\.$/.exec(
        advice ?? "",
      )?.[1];
    expect(Number(suggested)).toBeGreaterThan(10);
    await page
      .getByTestId("computer-model-settings")
      .screenshot({ path: `${ARTIFACTS}computer-model-timing.png` });

    // "Set the overall limit to N s" fills it in; saving keeps it, and the no-progress limit stays the default.
    await page.getByTestId("use-suggested-timeout").click();
    expect(await timeout.inputValue()).toBe(suggested);
    await page.getByTestId("save-computer-model").click();
    await expect.poll(() => state.llm?.timeoutMs, WAIT).toBe(Number(suggested) * 1000);
    expect(state.llm).toMatchObject({ baseUrl: model.url, model: "fake-model" });
    expect(state.llm).not.toHaveProperty("noProgressTimeoutMs");

    await page.reload();
    await openSettingsSection(page, "computer");
    await page.locator('[data-testid="computer-model-settings"][data-state="saved"]').waitFor(WAIT);
    expect(await timeout.inputValue()).toBe(suggested);
    expect(await page.getByTestId("computer-model-timeout-default").isChecked()).toBe(false);
    expect(await page.getByTestId("computer-model-no-progress-default").isChecked()).toBe(true);

    // "Use the default" sends null: the computer forgets the limit.
    await page.getByTestId("computer-model-timeout-default").check();
    expect(await timeout.inputValue()).toBe("600");
    await page.getByTestId("save-computer-model").click();
    await expect.poll(() => state.llm?.timeoutMs ?? "default", WAIT).toBe("default");
    expect(requests.at(-1)?.body).toMatchObject({ timeoutMs: null, noProgressTimeoutMs: null });
    expect(await page.content()).not.toContain(TESTED_MODEL_KEY);
  });

  it("sets the output cap in tokens, shows the default's words for the address, and goes back to it", async () => {
    const cap = page.getByTestId("computer-model-output-cap-tokens");
    const useDefault = page.getByTestId("computer-model-output-cap-default");
    await page.locator('[data-testid="computer-model-settings"][data-state="saved"]').waitFor(WAIT);
    // Nothing set: a model on this computer gets a cap sized to each report, said in words, not editable.
    expect(await useDefault.isChecked()).toBe(true);
    expect(await cap.isDisabled()).toBe(true);
    expect(await cap.inputValue()).toBe("");
    expect(await cap.getAttribute("placeholder")).toBe("sized to each report");
    expect(await page.getByTestId("computer-model-output-cap").textContent()).toContain(
      "Use the default: sized to each report for a model on your computer or network",
    );
    // A hosted model gets none.
    await page.getByTestId("computer-model-base-url").fill("https://models.example/v1");
    expect(await cap.getAttribute("placeholder")).toBe("none");
    expect(await page.getByTestId("computer-model-output-cap").textContent()).toContain(
      "none for a hosted model",
    );
    await page.getByTestId("computer-model-base-url").fill(model.url);

    // A cap outside 256 to 32768 tokens is refused before asking the computer.
    await useDefault.uncheck();
    expect(await cap.isDisabled()).toBe(false);
    await cap.fill("100000");
    const before = requests.length;
    await page.getByTestId("save-computer-model").click();
    await page.locator('[data-testid="computer-model-problem"][data-kind="model-output-cap"]').waitFor(WAIT);
    expect(await page.getByTestId("computer-model-problem").textContent()).toBe(
      "The output cap is a whole number of tokens from 256 to 32768.",
    );
    expect(requests.length).toBe(before);

    // A number in the range reaches the computer's settings and comes back after a reload.
    await cap.fill("2048");
    await page.getByTestId("save-computer-model").click();
    await expect.poll(() => state.llm?.maxOutputTokens, WAIT).toBe(2048);
    expect(requests.at(-1)).toMatchObject({
      method: "PUT",
      path: "/llm/settings",
      body: { maxOutputTokens: 2048 },
    });
    await page.reload();
    await openSettingsSection(page, "computer");
    await page.locator('[data-testid="computer-model-settings"][data-state="saved"]').waitFor(WAIT);
    expect(await cap.inputValue()).toBe("2048");
    expect(await useDefault.isChecked()).toBe(false);

    // "Use the default" sends null: the computer forgets the cap.
    await useDefault.check();
    await page.getByTestId("save-computer-model").click();
    await expect.poll(() => state.llm?.maxOutputTokens ?? "default", WAIT).toBe("default");
    expect(requests.at(-1)?.body).toMatchObject({ maxOutputTokens: null });
  });

  it("sets the escalation channels and schedule from the phone; the computer saves them, and only hints come back", async () => {
    const section = page.getByTestId("escalation-settings");
    await section.getByTestId("escalation-channels").waitFor({ state: "attached", ...WAIT });
    const channelForm = section.getByTestId("escalation-channel-form");
    await section.getByTestId("escalation-kind").selectOption("pushover");
    await section.getByTestId("escalation-userKey").fill(CHANNEL_ACCOUNTS.pushover.userKey);
    await section.getByTestId("escalation-appToken").fill(CHANNEL_ACCOUNTS.pushover.appToken);
    await channelForm.locator('button[type="submit"]').click();
    await section.locator('[data-testid="escalation-channels"] li[data-kind="pushover"]').waitFor(WAIT);
    await section.getByTestId("escalation-kind").selectOption("telegram");
    await section.getByTestId("escalation-botToken").fill(WRONG_BOT_TOKEN);
    await section.getByTestId("escalation-chatId").fill(CHANNEL_ACCOUNTS.telegram.chatId);
    await channelForm.locator('button[type="submit"]').click();
    await section.locator('[data-testid="escalation-channels"] li[data-kind="telegram"]').waitFor(WAIT);

    await section.getByTestId("escalation-needsYou").fill("45");
    await section.getByTestId("escalation-finished").fill("120");
    await section.getByTestId("escalation-step").fill("20");
    await section.getByTestId("escalation-idle").fill("300");
    await section.getByTestId("escalation-timing-form").locator('button[type="submit"]').click();
    await expect
      .poll(async () => (await computer.savedEscalation()) as { schedule?: unknown } | undefined, WAIT)
      .toMatchObject({ schedule: { finished: { afterSeconds: 120 } } });

    // What the daemon wrote to daemon.json: the secrets as typed, in the order the channels are tried.
    expect(await computer.savedEscalation()).toEqual({
      channels: [
        { kind: "pushover", ...CHANNEL_ACCOUNTS.pushover },
        { kind: "telegram", botToken: WRONG_BOT_TOKEN, chatId: CHANNEL_ACCOUNTS.telegram.chatId },
      ],
      schedule: {
        needsYou: { afterSeconds: 45, stepSeconds: 20 },
        finished: { afterSeconds: 120, stepSeconds: 20 },
      },
      idleAwaySeconds: 300,
    });
    const secrets = [CHANNEL_ACCOUNTS.pushover.userKey, CHANNEL_ACCOUNTS.pushover.appToken, WRONG_BOT_TOKEN];
    const answers = requests.filter((request) => request.path.startsWith("/escalation/"));
    expect(answers.length).toBeGreaterThanOrEqual(4);

    // Opened again: the schedule and the channels come back, each secret only as its hint.
    await page.reload();
    await openSettingsSection(page, "computer");
    const reopened = page.getByTestId("escalation-settings");
    const pushover = reopened.locator('[data-testid="escalation-channels"] li[data-kind="pushover"]');
    await pushover.waitFor(WAIT);
    expect(await pushover.textContent()).toContain("saved: ****0000, saved: ****0000");
    expect(
      await reopened.locator('[data-testid="escalation-channels"] li[data-kind="telegram"]').textContent(),
    ).toContain("42, saved: ****bot");
    await expect.poll(() => reopened.getByTestId("escalation-finished").inputValue(), WAIT).toBe("120");
    expect(await reopened.getByTestId("escalation-needsYou").inputValue()).toBe("45");
    expect(await reopened.getByTestId("escalation-step").inputValue()).toBe("20");
    expect(await reopened.getByTestId("escalation-idle").inputValue()).toBe("300");
    const content = await page.content();
    for (const secret of secrets) expect(content).not.toContain(secret);
    await reopened.screenshot({ path: `${ARTIFACTS}computer-escalation-saved.png` });
  });

  it("tests the ladder through the computer and shows what each channel answered", async () => {
    const section = page.getByTestId("escalation-settings");
    await section.getByTestId("escalation-test").click();
    const rungs = section.locator('[data-testid="escalation-test-result"] li');
    await expect.poll(() => rungs.count(), WAIT).toBe(3);
    expect(await rungs.allTextContents()).toEqual([
      "push: skipped (the repeat push is sent with a ringing call only)",
      "pushover: sent (HTTP 200)",
      "telegram: refused (Unauthorized)",
    ]);
    expect(await rungs.nth(2).getAttribute("data-outcome")).toBe("refused");
    // The Pushover alert really went out, and was cancelled right after (a test rings once).
    expect(computer.channels.receipts[0]?.cancelled).toBe(true);
    await section.screenshot({ path: `${ARTIFACTS}computer-escalation-tested.png` });
  });

  it("sets the computer's calls from agents: the window, a choice per typed project, the quiet summary; a wrong window is refused", async () => {
    const section = page.getByTestId("call-rules-settings");
    await expect.poll(() => page.getByTestId("call-rules-gather").inputValue(), WAIT).toBe("20");
    expect(await section.textContent()).toContain("No project yet: every project rings.");
    await page.getByTestId("call-rules-gather").fill("5");
    await page.getByTestId("call-rules-new-project").fill("docs");
    await page.getByTestId("call-rules-add-project").click();
    await page.getByTestId("call-rules-new-project").fill("search");
    await page.getByTestId("call-rules-new-project").press("Enter");
    const ringOf = (project: string) =>
      page.locator(`[data-project="${project}"]`).getByTestId("call-rules-project-ring");
    await ringOf("docs").selectOption("silent");
    await ringOf("search").selectOption("round-up");
    await page.getByTestId("call-rules-quiet-summary").fill("18:30");
    await page.getByTestId("call-rules-save").click();
    await section.getByText("Saved.").waitFor(WAIT);
    const rules = {
      gatherSeconds: 5,
      projects: { docs: "silent", search: "round-up" },
      quietSummaryAt: "18:30",
    };
    expect(state.callRules).toEqual(rules);
    expect(requests.filter((request) => request.path === "/call-rules").at(-1)).toEqual({
      method: "PUT",
      path: "/call-rules",
      body: rules,
    });
    await section.screenshot({ path: `${ARTIFACTS}call-rules-saved.png` });

    await ringOf("docs").selectOption("ring");
    await page.getByTestId("call-rules-quiet-summary").fill("");
    await page.getByTestId("call-rules-save").click();
    await expect
      .poll(() => state.callRules, WAIT)
      .toEqual({
        gatherSeconds: 5,
        projects: { search: "round-up" },
        quietSummaryAt: null,
      });
    // Past the longest window (300 s) the form itself refuses: nothing goes to the computer.
    const ruleRequests = () => requests.filter((request) => request.path === "/call-rules").length;
    const sent = ruleRequests();
    await page.getByTestId("call-rules-gather").fill("301");
    await page.getByTestId("call-rules-save").click();
    expect(await page.locator('[data-testid="call-rules-gather"]:invalid').count()).toBe(1);
    expect(ruleRequests()).toBe(sent);
    expect(state.callRules.gatherSeconds).toBe(5);
  });

  it("refuses an encryption phrase under 12 characters, and reports a computer with another key", async () => {
    await page.getByTestId("encryption-phrase").fill("too short!!");
    await page.getByTestId("change-key").click();
    await page.locator('[data-testid="encryption-problem"][data-kind="phrase-too-short"]').waitFor(WAIT);
    // The key is still the computer's: it answers.
    await page.getByTestId("check-key").click();
    await page.locator('[data-testid="key-check"][data-check="matches"]').waitFor(WAIT);

    await page.getByTestId("encryption-phrase").fill("a different phrase entirely");
    await page.getByTestId("change-key").click();
    await page.locator('[data-testid="key-check"][data-check="differs"]').waitFor(WAIT);
    expect(await page.getByTestId("key-check").textContent()).toContain("ringback");
    expect(await page.getByTestId("encryption-phrase").inputValue()).toBe("");
    expect(await page.content()).not.toMatch(/rbk1_/);
    await page
      .getByTestId("encryption-settings")
      .screenshot({ path: `${ARTIFACTS}computer-encryption-differs.png` });
    expect(pageErrors).toEqual([]);
  });

  it("says how to add a computer when the account has none", async () => {
    await using alone = await startTestRelayServer(DIST);
    const context = await browser.newContext({ viewport: { width: 420, height: 900 }, locale: "en-US" });
    try {
      const other = await context.newPage();
      await createAccount(other, alone.origin, PHRASE, { timeoutMs: WAIT.timeout });
      await openSettingsSection(other, "computer");
      await other.getByTestId("no-computer").waitFor(WAIT);
      expect(await other.getByTestId("no-computer").textContent()).toContain("ringback login");
      expect(await other.getByTestId("tracker-settings").count()).toBe(0);
      expect(await other.getByTestId("computer-model-settings").count()).toBe(0);
      await other.getByTestId("check-key").click();
      await other.locator('[data-testid="key-check"][data-check="no-computer"]').waitFor(WAIT);
    } finally {
      await context.close();
    }
  });
});
