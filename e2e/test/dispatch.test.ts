import { join } from "node:path";
import { jpegSize, pasteTwoImages } from "@ringback/test-kit";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISPATCH_TEXTS } from "../../packages/client/src/i18n/texts/dispatch.ts";
import { callDaemon } from "../harness/daemon-local-api.ts";
import { type Device, UI_WAIT_MS } from "../harness/device.ts";
import { filesHolding, readRelayDataFiles } from "../harness/relay-data-files.ts";
import { type RingbackSystem, startSystem } from "../harness/system.ts";
import {
  putTrackerSettings,
  startTrackerSimulator,
  type TrackerSimulator,
} from "../harness/tracker-simulator.ts";

// The real daemon talks to the Multica simulator (its demo data: workspace "Ringback Demo", project "Launch", the
// agent "Claude" on an online runtime); the browser reaches the daemon only through the relay, sealed.
const texts = DISPATCH_TEXTS.en;
let tracker: TrackerSimulator;
let system: RingbackSystem;
let phone: Device;

beforeAll(async () => {
  tracker = await startTrackerSimulator();
  system = await startSystem({ trackerUrl: tracker.url });
  const saved = await putTrackerSettings(system.daemon, {
    token: tracker.seed.user.token,
    workspaceIds: [tracker.seed.workspace.id],
  });
  expect(saved.settings?.workspaces).toEqual([tracker.seed.workspace.id]);
  phone = await system.addDevice("phone");
});

afterAll(async () => {
  try {
    await system?.[Symbol.asyncDispose]();
  } finally {
    await tracker?.close();
  }
});

/** Drops one 640 x 480 PNG on the dispatch form, as a file dragged from the desktop would arrive. */
function dropImage(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const canvas = new OffscreenCanvas(640, 480);
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d context");
    context.fillStyle = "#084298";
    context.fillRect(0, 0, 640, 480);
    const blob = await canvas.convertToBlob({ type: "image/png" });
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], "redirect-loop.png", { type: "image/png" }));
    const form = document.querySelector('[data-testid="dispatch-form"]');
    if (!form) throw new Error("no dispatch form");
    form.dispatchEvent(
      new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
    form.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
}

describe("dispatch through the relay to the real daemon and the tracker", () => {
  it("turns words and two pasted images into a quick-create with both uploads; the screen says dispatched", async () => {
    const { fake, seed } = tracker;
    const claude = seed.agents.find((agent) => agent.name === "Claude");
    if (!claude) throw new Error("the demo seed has no agent Claude");
    const page = phone.page;

    await page.getByTestId("nav-dispatch").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("dispatch-screen").waitFor({ timeout: UI_WAIT_MS });
    // Ready once the options came back from the daemon through the relay: only the empty draft holds the button.
    await page
      .locator('[data-testid="dispatch-blocker"][data-blocker="empty"]')
      .waitFor({ timeout: UI_WAIT_MS });
    await page.getByTestId("dispatch-project").selectOption(seed.project.id, { timeout: UI_WAIT_MS });
    await page.getByTestId("dispatch-agent").selectOption(claude.id, { timeout: UI_WAIT_MS });
    expect(await page.getByTestId("dispatch-agent").locator("option:checked").textContent()).toBe("Claude");

    const words = "Add a dark mode toggle to the settings page; the screenshots show where.";
    await page.getByTestId("dispatch-words").fill(words, { timeout: UI_WAIT_MS });
    await pasteTwoImages(page);
    await expect
      .poll(() => page.locator('[data-testid="dispatch-image"][data-status="ready"]').count(), {
        timeout: UI_WAIT_MS,
      })
      .toBe(2);
    await phone.screenshot("dispatch-form", { fullPage: true });
    await page.getByTestId("dispatch-button").click({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="dispatch-calling"][data-stage="calling"]')
      .waitFor({ timeout: UI_WAIT_MS });

    // The daemon uploaded both images, then asked the tracker's agent to write the issue with them attached.
    await expect.poll(() => fake.state.quickCreateRequests.size, { timeout: UI_WAIT_MS }).toBe(1);
    expect(fake.requests.count("POST", "/api/upload-file")).toBe(2);
    const uploads = [...fake.state.files.entries()].map(([id, file]) => ({ id, ...file }));
    expect(uploads.map((file) => [file.filename, file.contentType])).toEqual([
      ["screenshot.jpg", "image/jpeg"],
      ["photo.jpg", "image/jpeg"],
    ]);
    // The large PNG arrived as a JPEG scaled to fit; the small JPEG as it was.
    const [large, small] = uploads;
    if (!large || !small) throw new Error("two uploads expected");
    const largeSize = jpegSize(large.bytes);
    expect(Math.max(largeSize.width, largeSize.height)).toBeLessThan(3000);
    expect(largeSize.width / largeSize.height).toBeCloseTo(1.5, 1);
    expect(jpegSize(small.bytes)).toEqual({ width: 320, height: 240 });
    const [entry] = [...fake.state.quickCreateRequests.entries()];
    if (!entry) throw new Error("no quick-create");
    const [taskId, quickCreate] = entry;
    expect(quickCreate.attachment_ids).toEqual([large.id, small.id]);
    expect(quickCreate.agent_id).toBe(claude.id);
    expect(quickCreate.project_id).toBe(seed.project.id);
    expect(quickCreate.prompt).toContain(words);

    // The agent writes the issue; the app learns it from the daemon and shows its number and title.
    const title = "Dark mode toggle in settings";
    const { issue } = fake.state.completeQuickCreate(taskId, { title });
    await page
      .locator('[data-testid="dispatch-calling"][data-stage="dispatched"]')
      .waitFor({ timeout: UI_WAIT_MS });
    expect(await page.getByTestId("dispatch-stage").textContent()).toBe(texts.dispatched);
    expect(await page.getByTestId("dispatched-number").textContent()).toBe(fake.state.identifierOf(issue));
    expect(await page.getByTestId("dispatched-title").textContent()).toBe(title);
    const row = page.locator('[data-testid="dispatch-row"][data-state="created"]');
    await row.waitFor({ timeout: UI_WAIT_MS });
    expect(await row.textContent()).toContain(texts.stateCreated);
    await phone.screenshot("dispatch-dispatched", { fullPage: true });

    // The relay carried the dispatch sealed: none of its words, nor the tracker's title, is in its files.
    const relayFiles = await readRelayDataFiles(join(system.directory.path, "relay"));
    expect(relayFiles.length).toBeGreaterThan(0);
    expect(filesHolding(relayFiles, words)).toEqual([]);
    expect(filesHolding(relayFiles, title)).toEqual([]);
    expect(phone.pageErrors).toEqual([]);
  });

  it("cancels the tracker task of a dispatch still calling, once, when the user cancels", async () => {
    const { fake } = tracker;
    const page = phone.page;
    await page.getByTestId("dispatch-new").click({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="dispatch-blocker"][data-blocker="empty"]')
      .waitFor({ timeout: UI_WAIT_MS });
    await page
      .getByTestId("dispatch-words")
      .fill("Rename the billing page to Plans.", { timeout: UI_WAIT_MS });
    const before = fake.state.quickCreateRequests.size;
    await page.getByTestId("dispatch-button").click({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="dispatch-calling"][data-stage="calling"]')
      .waitFor({ timeout: UI_WAIT_MS });
    await expect.poll(() => fake.state.quickCreateRequests.size, { timeout: UI_WAIT_MS }).toBe(before + 1);
    const taskId = [...fake.state.quickCreateRequests.keys()].at(-1) ?? "";
    expect(fake.state.quickCreateRequests.get(taskId)?.attachment_ids).toEqual([]);

    await page.getByTestId("dispatch-cancel").click({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="dispatch-calling"][data-stage="cancelled"]')
      .waitFor({ timeout: UI_WAIT_MS });
    expect(await page.getByTestId("dispatch-stage").textContent()).toBe(texts.cancelled);
    expect(fake.state.tasks.get(taskId)?.status).toBe("cancelled");
    expect(fake.requests.count("POST", `/api/tasks/${taskId}/cancel`)).toBe(1);
    await page
      .locator('[data-testid="dispatch-row"][data-state="cancelled"]')
      .waitFor({ timeout: UI_WAIT_MS });
    expect(phone.pageErrors).toEqual([]);
  });

  it("comments on an issue found by search, with a dropped image; the record names the issue's agent", async () => {
    const { fake, seed } = tracker;
    const issue = seed.issues.find((candidate) => candidate.title === "Fix the login redirect");
    if (!issue) throw new Error("the demo seed has no login-redirect issue");
    const page = phone.page;
    await page.getByTestId("dispatch-new").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("dispatch-mode-comment").click({ timeout: UI_WAIT_MS });
    await page.getByTestId("issue-search").fill("login redirect", { timeout: UI_WAIT_MS });
    await page.getByTestId("issue-search-button").click();
    const option = page.getByTestId("issue-option");
    await expect.poll(() => option.count(), { timeout: UI_WAIT_MS }).toBe(1);
    await option.check();

    const words = "It still loops on Safari 18; the screenshot shows the second redirect.";
    await page.getByTestId("dispatch-words").fill(words, { timeout: UI_WAIT_MS });
    await dropImage(page);
    await page
      .locator('[data-testid="dispatch-image"][data-status="ready"]')
      .waitFor({ timeout: UI_WAIT_MS });
    const commentsBefore = [...fake.state.comments.values()].filter((c) => c.issue_id === issue.id).length;
    await page.getByTestId("dispatch-button").click({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="dispatch-calling"][data-stage="dispatched"]')
      .waitFor({ timeout: UI_WAIT_MS });

    // One top-level comment on that issue with the words and the dropped image (small enough to go as it was).
    const comments = [...fake.state.comments.values()].filter((comment) => comment.issue_id === issue.id);
    expect(comments).toHaveLength(commentsBefore + 1);
    const comment = comments.at(-1);
    expect(comment?.content).toContain(words);
    expect(comment?.parent_id).toBeNull();
    expect(comment?.attachments.map((attachment) => attachment.filename)).toEqual(["redirect-loop.png"]);
    expect(await page.getByTestId("dispatched-number").textContent()).toBe(fake.state.identifierOf(issue));
    expect(await page.getByTestId("dispatched-title").textContent()).toBe(issue.title);
    // "My dispatches" still holds the first test's created row until the refresh that follows this dispatch
    // lands: wait for this comment's row, then check it is the newest (first) one.
    const rows = page.locator('[data-testid="dispatch-row"][data-state="created"]');
    await rows.filter({ hasText: issue.title }).waitFor({ timeout: UI_WAIT_MS });
    expect(await rows.first().textContent()).toContain(issue.title);
    // The daemon's record names the issue's agent, which the tracker triggers with the comment.
    const records = await callDaemon(system.daemon, "GET", "/tracker/dispatches");
    const [latest] = ((await records.json()) as { dispatches: Record<string, unknown>[] }).dispatches;
    expect(latest).toMatchObject({ id: comment?.id, kind: "comment", state: "created", agentName: "Claude" });
    expect(phone.pageErrors).toEqual([]);
  });
});
