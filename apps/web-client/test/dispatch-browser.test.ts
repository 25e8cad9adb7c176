import { type FakeMultica, startFakeMultica } from "@ringback/fake-multica";
import { jpegSize, pasteTwoImages } from "@ringback/test-kit";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumForFile, createAccount, DIST, type FileBrowser } from "./built-app.js";
import { type DispatchRelayServer, startDispatchRelayServer } from "./dispatch-relay-server.js";
import { accountKeyFrom } from "./test-relay-server.js";
import { trackerBackedDaemon } from "./tracker-backed-daemon.js";

const PHRASE = "correct horse battery staple";
/** Generous: the machine is shared and busy; nothing here is timed. */
const WAIT_MS = 45_000;

describe("dispatch from the built web app in Chromium", () => {
  let fake: FakeMultica;
  let server: DispatchRelayServer;
  let browser: FileBrowser;
  let page: Page;
  let agentName: string;
  let runtime: ReturnType<FakeMultica["state"]["addRuntime"]>;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    fake = await startFakeMultica();
    const user = fake.state.addUser();
    const workspace = fake.state.addWorkspace({ name: "Ringback", slug: "ring", members: [user.id] });
    fake.state.addProject(workspace.id, { title: "Website" });
    runtime = fake.state.addRuntime(workspace.id, { status: "online" });
    agentName = fake.state.addAgent(workspace.id, { name: "Claude", runtime_id: runtime.id }).name;
    const { daemon } = trackerBackedDaemon({
      trackerUrl: fake.url,
      token: user.token,
      workspaceId: workspace.id,
    });
    server = await startDispatchRelayServer(DIST, accountKeyFrom(PHRASE), daemon);
    browser = await chromiumForFile();
    page = await (await browser.newContext({ viewport: { width: 420, height: 900 } })).newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it("a dispatch with two pasted images becomes dispatched", async () => {
    await createAccount(page, server.origin, PHRASE);
    await page.getByTestId("nav-dispatch").click();
    // Ready once the options came back through the relay: only the empty draft holds the button.
    await page.locator('[data-testid="dispatch-blocker"][data-blocker="empty"]').waitFor();
    expect(await page.getByTestId("dispatch-agent").locator("option:checked").textContent()).toBe(agentName);

    await page.getByTestId("dispatch-words").fill("Add a dark mode toggle to the settings page.");
    await pasteTwoImages(page);
    await expect
      .poll(() => page.locator('[data-testid="dispatch-image"][data-status="ready"]').count(), {
        timeout: WAIT_MS,
      })
      .toBe(2);
    await page.screenshot({ path: `${ARTIFACTS}dispatch-form.png`, fullPage: true });
    await page.getByTestId("dispatch-button").click();
    await page.locator('[data-testid="dispatch-calling"][data-stage="calling"]').waitFor();

    await expect.poll(() => fake.state.quickCreateRequests.size, { timeout: WAIT_MS }).toBe(1);
    expect(fake.requests.count("POST", "/api/upload-file")).toBe(2);
    const uploads = [...fake.state.files.entries()].map(([id, file]) => ({ id, ...file }));
    expect(uploads.map((file) => [file.filename, file.contentType])).toEqual([
      ["screenshot.jpg", "image/jpeg"],
      ["photo.jpg", "image/jpeg"],
    ]);
    expect(jpegSize(uploads[0]!.bytes)).toEqual({ width: 2048, height: 1365 });
    expect(jpegSize(uploads[1]!.bytes)).toEqual({ width: 320, height: 240 });
    const [taskId, quickCreate] = [...fake.state.quickCreateRequests.entries()][0]!;
    expect(quickCreate.attachment_ids).toEqual(uploads.map((file) => file.id));
    expect(quickCreate.prompt).toContain("Add a dark mode toggle to the settings page.");
    await page.screenshot({ path: `${ARTIFACTS}dispatch-calling.png`, fullPage: true });

    const { issue } = fake.state.completeQuickCreate(taskId, { title: "Dark mode toggle in settings" });
    await page.locator('[data-testid="dispatch-calling"][data-stage="dispatched"]').waitFor();
    expect(await page.getByTestId("dispatch-stage").textContent()).toBe("Dispatched");
    expect(await page.getByTestId("dispatched-number").textContent()).toBe(fake.state.identifierOf(issue));
    expect(await page.getByTestId("dispatched-title").textContent()).toBe("Dark mode toggle in settings");
    await page.locator('[data-testid="dispatch-row"][data-state="created"]').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}dispatch-dispatched.png`, fullPage: true });
    expect(consoleErrors).toEqual([]);
  });

  it("cancelling a calling dispatch cancels the tracker task", async () => {
    await page.getByTestId("dispatch-new").click();
    await page.locator('[data-testid="dispatch-blocker"][data-blocker="empty"]').waitFor();
    await page.getByTestId("dispatch-words").fill("Rename the billing page.");
    await page.getByTestId("dispatch-button").click();
    await page.locator('[data-testid="dispatch-calling"][data-stage="calling"]').waitFor();
    await expect.poll(() => fake.state.quickCreateRequests.size, { timeout: WAIT_MS }).toBe(2);
    const taskId = [...fake.state.quickCreateRequests.keys()][1]!;
    await page.getByTestId("dispatch-cancel").click();
    await page.locator('[data-testid="dispatch-calling"][data-stage="cancelled"]').waitFor();
    expect(fake.state.tasks.get(taskId)?.status).toBe("cancelled");
    await page.locator('[data-testid="dispatch-row"][data-state="cancelled"]').waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it("a failed dispatch says what happened in words to act on, the agent's raw error only behind Details", async () => {
    const raw = "RAW-ERROR-5c1: claude exited with status 137 (SIGKILL)";
    await page.getByTestId("dispatch-new").click();
    await page.locator('[data-testid="dispatch-blocker"][data-blocker="empty"]').waitFor();
    await page.getByTestId("dispatch-words").fill("Move the footer links.");
    await page.getByTestId("dispatch-button").click();
    await page.locator('[data-testid="dispatch-calling"][data-stage="calling"]').waitFor();
    await expect.poll(() => fake.state.quickCreateRequests.size, { timeout: WAIT_MS }).toBe(3);
    const taskId = [...fake.state.quickCreateRequests.keys()][2]!;
    fake.state.failTask(taskId, { error: raw });
    await page.locator('[data-testid="dispatch-calling"][data-stage="failed"]').waitFor();
    const failure = page.getByTestId("dispatch-failure");
    expect(await failure.getByTestId("problem-reason").textContent()).toBe(
      "The agent stopped before it made the issue. Try again, or open the task in the tracker to see why.",
    );
    expect(await failure.getByTestId("problem-detail").isVisible()).toBe(false);
    await failure.getByText("Details").click();
    expect(await failure.getByTestId("problem-detail").textContent()).toBe(raw);
    await page.screenshot({ path: `${ARTIFACTS}dispatch-failed.png`, fullPage: true });
    expect(consoleErrors).toEqual([]);
  });

  it("states that the selected agent is offline once the options are read again", async () => {
    await page.getByTestId("dispatch-new").click();
    await page.getByTestId("dispatch-words").fill("Anything.");
    expect(await page.getByTestId("dispatch-button").isEnabled()).toBe(true);
    runtime.status = "offline";
    // The options are re-read every 10 seconds.
    await page.locator('[data-testid="dispatch-blocker"][data-blocker="agent-offline"]').waitFor();
    expect(await page.getByTestId("dispatch-button").isDisabled()).toBe(true);
    expect(await page.getByTestId("dispatch-blocker").textContent()).toContain(
      "The selected agent's computer is offline in the tracker.",
    );
    await page.screenshot({ path: `${ARTIFACTS}dispatch-agent-offline.png`, fullPage: true });
  });
});
