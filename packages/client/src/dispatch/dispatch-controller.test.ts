import { DISPATCH_CREATION_POLL_MS, DISPATCH_OPTIONS_POLL_MS, DISPATCH_WORDS_MAX } from "@ringback/protocol";
import { dispatchRecord } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FakeDispatchDaemon,
  imageFile,
  preparedImage,
  RecordingRinger,
  refusedWith,
} from "../../test/dispatch-test-doubles.js";
import { toneSound } from "../audio/ring-sound.js";
import { RINGBACK_TONE } from "../audio/tones.js";
import { LocalSettings } from "../storage/local-settings.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { DispatchController } from "./dispatch-controller.js";

const WAITING_TONE = toneSound(RINGBACK_TONE);

describe("the dispatch controller", () => {
  let daemon: FakeDispatchDaemon;
  let ringer: RecordingRinger;
  let settings: LocalSettings;
  let controller: DispatchController;

  const newController = () =>
    new DispatchController({
      daemon,
      settings,
      ringer,
      callWaitingSound: () => WAITING_TONE,
      prepareImage: async (file) => preparedImage(file.name),
    });

  beforeEach(() => {
    vi.useFakeTimers();
    daemon = new FakeDispatchDaemon();
    ringer = new RecordingRinger();
    settings = new LocalSettings(createMemoryStore());
    controller = newController();
  });

  afterEach(() => {
    controller.stop();
    vi.useRealTimers();
  });

  describe("options", () => {
    it("reads projects and agents on open and again every 10 seconds until closed", async () => {
      await controller.open();
      expect(controller.view.availability).toBe("ready");
      expect(controller.view.projects.map((project) => project.name)).toEqual(["Website", "Billing"]);
      expect(daemon.named("options")).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(DISPATCH_OPTIONS_POLL_MS);
      expect(daemon.named("options")).toHaveLength(2);
      daemon.options = { ...daemon.options, agents: [{ id: "a1", name: "Claude", online: false }] };
      await vi.advanceTimersByTimeAsync(DISPATCH_OPTIONS_POLL_MS);
      expect(controller.view.agents).toEqual([{ id: "a1", name: "Claude", online: false }]);
      controller.close();
      await vi.advanceTimersByTimeAsync(DISPATCH_OPTIONS_POLL_MS * 3);
      expect(daemon.named("options")).toHaveLength(3);
    });

    it("defaults to the first project and the first online agent without a last used one", async () => {
      await controller.open();
      expect(controller.view.projectId).toBe("p1");
      expect(controller.view.agentId).toBe("a1");
    });

    it("defaults to the project and agent of the last dispatch, stored on the device", async () => {
      await controller.open();
      controller.chooseProject("p2");
      controller.chooseAgent("a2");
      controller.setWords("Add a dark mode toggle");
      await controller.send();
      expect(await settings.loadDispatchLastUsed()).toEqual({
        workspaceId: null,
        projectId: "p2",
        agentId: "a2",
      });

      const later = newController();
      await later.open();
      expect(later.view.projectId).toBe("p2");
      expect(later.view.agentId).toBe("a2");
      later.stop();
    });

    it("shows the workspace row's names when several workspaces are watched, and returns to the last used one", async () => {
      daemon.watched = ["ws1", "ws2"];
      await settings.saveDispatchLastUsed({ workspaceId: "ws2", projectId: "p2", agentId: "a2" });
      await controller.open();
      expect(controller.view.workspaces).toEqual([
        { id: "ws1", name: "Name of ws1" },
        { id: "ws2", name: "Name of ws2" },
      ]);
      expect(controller.view.workspaceId).toBe("ws2");
      expect(daemon.named("options").at(-1)).toBe("ws2");
      expect(controller.view.projectId).toBe("p2");
    });
  });

  describe("the button's stated reason", () => {
    it("says when the account has no computer, or the relay lists it offline", async () => {
      daemon.computerState = null;
      await controller.open();
      expect(controller.view.blocker).toBe("no-computer");
      daemon.computerState = { online: false };
      await controller.refresh();
      expect(controller.view.blocker).toBe("computer-offline");
      expect(daemon.named("options")).toHaveLength(0);
    });

    it("says the daemon is not running when the relayed request fails with computer_offline or a timeout", async () => {
      daemon.refusal = refusedWith("computer_offline");
      await controller.open();
      expect(controller.view.blocker).toBe("daemon-not-running");
      daemon.refusal = refusedWith("computer_timeout");
      await controller.refresh();
      expect(controller.view.blocker).toBe("daemon-not-running");
    });

    it("says the tracker is not set up, and clears once the daemon answers on a later read", async () => {
      daemon.refusal = refusedWith("tracker_not_configured");
      await controller.open();
      expect(controller.view.blocker).toBe("tracker-not-configured");
      daemon.refusal = null;
      await vi.advanceTimersByTimeAsync(DISPATCH_OPTIONS_POLL_MS);
      controller.setWords("Go");
      expect(controller.view.blocker).toBeNull();
    });

    it("says the selected agent is offline", async () => {
      await controller.open();
      controller.setWords("Go");
      controller.chooseAgent("a-off");
      expect(controller.view.blocker).toBe("agent-offline");
      await controller.send();
      expect(daemon.named("create")).toEqual([]);
    });

    it("refuses words over 8000 characters and an empty draft, but allows images alone", async () => {
      await controller.open();
      expect(controller.view.blocker).toBe("empty");
      controller.setWords("x".repeat(DISPATCH_WORDS_MAX + 1));
      expect(controller.view.blocker).toBe("too-long");
      controller.setWords("x".repeat(DISPATCH_WORDS_MAX));
      expect(controller.view.blocker).toBeNull();
      controller.setWords("");
      await controller.addImages([imageFile("shot.png")]);
      expect(controller.view.blocker).toBeNull();
    });

    it("waits for images still being prepared, and names one that could not be read", async () => {
      let finish: () => void = () => undefined;
      controller = new DispatchController({
        daemon,
        settings,
        ringer,
        callWaitingSound: () => WAITING_TONE,
        prepareImage: (file) =>
          file.name === "broken.png"
            ? Promise.reject(new Error("unreadable"))
            : new Promise((resolve) => {
                finish = () => resolve(preparedImage(file.name));
              }),
      });
      await controller.open();
      const adding = controller.addImages([imageFile("slow.png")]);
      expect(controller.view.blocker).toBe("images-preparing");
      finish();
      await adding;
      await controller.addImages([imageFile("broken.png")]);
      expect(controller.view.blocker).toBe("image-failed");
      controller.removeImage(controller.view.images.at(-1)!.id);
      expect(controller.view.blocker).toBeNull();
    });
  });

  describe("sending and calling", () => {
    it("uploads the images one by one, then creates the dispatch with their attachments", async () => {
      await controller.open();
      controller.setWords("See the screenshots");
      await controller.addImages([imageFile("one.png"), imageFile("two.png"), new File(["x"], "notes.txt")]);
      await controller.send();
      expect(
        daemon.calls.map((call) => call.name).filter((name) => name === "upload" || name === "create"),
      ).toEqual(["upload", "upload", "create"]);
      expect(daemon.named("create")).toEqual([
        {
          projectId: "p1",
          agentId: "a1",
          prompt: "See the screenshots",
          attachments: [
            { id: "att-one.png", filename: "one.png", markdownUrl: "https://files/one.png" },
            { id: "att-two.png", filename: "two.png", markdownUrl: "https://files/two.png" },
          ],
        },
      ]);
      expect(controller.view.stage).toBe("calling");
      expect(controller.view.images).toEqual([]);
      expect(controller.view.words).toBe("");
    });

    it("asks every 3 seconds with the tone playing until the issue is created, then shows number and title", async () => {
      await controller.open();
      controller.setWords("Add a dark mode toggle");
      await controller.send();
      expect(ringer.playing).toEqual(WAITING_TONE);
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS - 1);
      expect(daemon.named("lookup")).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(daemon.named("lookup")).toEqual(["d1"]);
      expect(controller.view.stage).toBe("calling");
      daemon.lookups.push(dispatchRecord({ state: "created", issueNumber: 42, title: "Dark mode toggle" }));
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS);
      expect(controller.view.stage).toBe("dispatched");
      expect(controller.view.current).toMatchObject({ issueNumber: 42, title: "Dark mode toggle" });
      expect(ringer.playing).toBeNull();
      // "My dispatches" is read again once the call ends, so it shows the outcome.
      expect(daemon.named("list")).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS * 3);
      expect(daemon.named("lookup")).toHaveLength(2);
    });

    it("stops the tone and the polling when the dispatch fails", async () => {
      await controller.open();
      controller.setWords("Go");
      await controller.send();
      daemon.lookups.push(dispatchRecord({ state: "failed", error: "agent_unavailable" }));
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS);
      expect(controller.view.stage).toBe("failed");
      expect(ringer.playing).toBeNull();
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS * 2);
      expect(daemon.named("lookup")).toHaveLength(1);
    });

    it("keeps asking through a lookup that fails, and says so meanwhile", async () => {
      await controller.open();
      controller.setWords("Go");
      await controller.send();
      daemon.refusal = refusedWith("computer_timeout");
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS);
      expect(controller.view.stage).toBe("calling");
      expect(controller.view.lookupProblem?.code).toBe("computer_timeout");
      daemon.refusal = null;
      daemon.lookups.push(dispatchRecord({ state: "created", issueNumber: 7, title: "T" }));
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS);
      expect(controller.view.stage).toBe("dispatched");
      expect(controller.view.lookupProblem).toBeNull();
    });

    it("cancels the tracker task: cancelled, silent, no more lookups", async () => {
      await controller.open();
      controller.setWords("Go");
      await controller.send();
      await controller.cancel();
      expect(daemon.named("cancel")).toEqual(["d1"]);
      expect(controller.view.stage).toBe("cancelled");
      expect(ringer.playing).toBeNull();
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS * 2);
      expect(daemon.named("lookup")).toEqual([]);
    });

    it("shows dispatched when the issue already existed as the user cancelled", async () => {
      await controller.open();
      controller.setWords("Go");
      await controller.send();
      const client = await daemon.client();
      client.cancelDispatch = async (id) =>
        dispatchRecord({ id, state: "created", issueNumber: 5, title: "Done" });
      await controller.cancel();
      expect(controller.view.stage).toBe("dispatched");
      expect(ringer.playing).toBeNull();
    });

    it("leaves to my dispatches: the tone stops and the list is read", async () => {
      await controller.open();
      controller.setWords("Go");
      await controller.send();
      await controller.leave();
      expect(controller.view.stage).toBe("compose");
      expect(ringer.playing).toBeNull();
      expect(controller.view.dispatches).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(DISPATCH_CREATION_POLL_MS * 2);
      expect(daemon.named("lookup")).toEqual([]);
    });

    it("plays the call-waiting tone as chosen, silent included", async () => {
      controller = new DispatchController({
        daemon,
        settings,
        ringer,
        callWaitingSound: () => ({ kind: "silent" }),
        prepareImage: async (file) => preparedImage(file.name),
      });
      await controller.open();
      controller.setWords("Go");
      await controller.send();
      expect(ringer.playing).toEqual({ kind: "silent" });
    });

    it("keeps the draft and states the problem when an upload is refused", async () => {
      await controller.open();
      await controller.addImages([imageFile("one.png")]);
      daemon.refusal = refusedWith("computer_offline");
      await controller.send();
      expect(controller.view.stage).toBe("compose");
      expect(controller.view.problem?.code).toBe("computer_offline");
      expect(controller.view.images).toHaveLength(1);
    });
  });

  describe("a comment on an existing issue", () => {
    it("searches the project's issues by words or number within the chosen statuses", async () => {
      await controller.open();
      controller.setMode("comment");
      await vi.advanceTimersByTimeAsync(0);
      expect(controller.view.statuses.map((status) => status.key)).toEqual(["todo", "done"]);
      await controller.searchIssues("RING-12", ["todo"]);
      expect(daemon.named("issues").at(-1)).toEqual({
        projectId: "p1",
        query: "RING-12",
        statuses: ["todo"],
      });
      expect(controller.view.search.issues.map((issue) => issue.identifier)).toEqual(["RING-12"]);
      expect(controller.view.blocker).toBe("no-issue");
    });

    it("posts the comment and shows it dispatched at once, without calling", async () => {
      await controller.open();
      controller.setMode("comment");
      controller.chooseIssue("i12");
      controller.setWords("Also handle the logout page");
      await controller.send();
      expect(daemon.named("create")).toEqual([
        { issueId: "i12", prompt: "Also handle the logout page", attachments: [] },
      ]);
      expect(controller.view.stage).toBe("dispatched");
      expect(ringer.starts).toBe(0);
    });
  });
});
