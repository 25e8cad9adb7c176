import { answers, type FakeAnswer, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { eventually, type ScriptedRelay } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DaemonProcess, openReportPost, postReport, readLocalKey } from "./helpers/daemon-process.js";
import { makeRelayedHome, type RelayedHome } from "./helpers/relayed-home.js";

const MODEL_KEY = "sk-fault-model-key-0123456789";

let home: RelayedHome;
let relay: ScriptedRelay;
let model: FakeModel;
let daemon: DaemonProcess;
let localKey: string;

beforeAll(async () => {
  home = await makeRelayedHome();
  relay = home.relay;
  model = await startFakeModel({ apiKey: MODEL_KEY });
  // The channel as daemon.json keeps it, with a short time-out so a hanging model costs the test one second.
  const channel = { baseUrl: model.url, apiKey: MODEL_KEY, model: "fake-model", timeoutMs: 1_000 };
  await home.link({ llm: { primary: channel } });
  daemon = await home.startDaemon();
  localKey = await readLocalKey(home.path);
});

afterAll(async () => {
  await home?.[Symbol.asyncDispose]();
  await model?.close();
});

const FAULTS: [string, FakeAnswer, RegExp][] = [
  ["hangs", answers.hang(), /did not finish within .* \(the overall limit\)/],
  ["answers garbage", answers.invalidJson(), /not valid JSON|JSON/i],
  ["filters the content", answers.contentFilter(), /content filter/i],
  ["refuses", answers.refusal("I can't summarise this."), /refused/],
  ["fails with 500", answers.serverError(), /500/],
];

describe("a report whose model fails still rings, with the agent's own words", () => {
  it.each(FAULTS)(
    "when the model %s: a failed brief is sealed and sent, and the report's text with it",
    async (name, fault, reason) => {
      model.script(fault);
      const index = FAULTS.findIndex(([fault]) => fault === name);
      const text = `Turn ${index}: the importer skips empty rows now; 57 tests pass.`;
      const before = relay.posts.length;
      const accepted = await postReport(daemon, localKey, {
        source: "codex",
        sessionId: `fault-${index}`,
        turnId: `turn-${index}`,
        cwd: "/home/user/project",
        text,
      });
      expect(accepted.status).toBe(202);
      await eventually(() => relay.posts.length > before, { checks: 750, on: relay.changes });
      const post = relay.posts.at(-1);
      if (!post) throw new Error("nothing sent");
      const payload = await openReportPost(home.path, post);
      expect(payload.brief.meta.status).toBe("failed");
      expect(payload.brief.meta.error).toMatch(reason);
      expect(payload.brief.spoken).toBe("");
      // What the phone reads aloud instead: the agent's words, whole.
      expect(payload.report.text).toBe(text);
      expect(JSON.stringify(relay.posts)).not.toContain(MODEL_KEY);
    },
  );
});
