import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PermissionRequestPost, REPORT_BODY_MAX_BYTES } from "@ringback/protocol";
import { freePort, makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { type FakeDaemonAnswer, type FakeDaemonOptions, homeWithDaemon } from "./support/fake-daemon.js";
import { type GenuinePermissionPayload, type Payload, readGenuinePayload } from "./support/fixtures.js";
import { assertBundleBuilt, hookEnv, runAgentHook, writeRingbackHome } from "./support/hook-process.js";
import { expectSignedWithoutTheKey } from "./support/signed-request.js";

beforeAll(assertBundleBuilt);

type Agent = "claude-code" | "codex";
const AGENTS: Agent[] = ["claude-code", "codex"];

const LAST_WORDS = "The migration adds a NOT NULL column; I need to apply it before the tests can pass.";

/** A transcript as each agent writes it when it asks: its last words, then the tool call it wants to make. */
function transcriptLines(agent: Agent): string[] {
  if (agent === "claude-code")
    return [
      { type: "user", message: { role: "user", content: "Make the tests pass." } },
      { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: LAST_WORDS }] } },
      {
        type: "assistant",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }],
        },
      },
    ].map((record) => JSON.stringify(record));
  return [
    { type: "event_msg", payload: { type: "user_message", message: "Make the tests pass." } },
    {
      type: "response_item",
      payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: LAST_WORDS }] },
    },
    { type: "response_item", payload: { type: "function_call", name: "shell", arguments: "{}" } },
  ].map((record) => JSON.stringify(record));
}

/** The agent's PermissionRequest payload, its transcript written into `directory`. */
async function permissionPayload(agent: Agent, directory: string): Promise<Payload> {
  const payload = await readGenuinePayload(`permission-request-${agent}`);
  const transcript = join(directory, `${agent}-transcript.jsonl`);
  await writeFile(transcript, `${transcriptLines(agent).join("\n")}\n`);
  return { ...payload, transcript_path: transcript };
}

/** The agent asks permission with a fake daemon answering `answer`; the hook's result and what the daemon got. */
async function askWith(
  agent: Agent,
  answer: FakeDaemonAnswer,
  env: NodeJS.ProcessEnv = {},
  options: FakeDaemonOptions = {},
) {
  await using setup = await homeWithDaemon(answer, options);
  const { home, daemon } = setup;
  const payload = await permissionPayload(agent, home.path);
  const result = await runAgentHook(agent, payload, hookEnv(home.path, env));
  return { result, requests: [...daemon.requests], payload, port: daemon.port };
}

function answer(body: unknown, status = 200): FakeDaemonAnswer {
  return { status, body: typeof body === "string" ? body : JSON.stringify(body) };
}

const decided = (verdict: "allow" | "deny", reason: string | null = null) =>
  answer({ outcome: "decided", verdict, reason, decidedOn: "Pixel 8" });

const ALLOW_OUTPUT =
  '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';
const denyOutput = (message: string) =>
  `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message } } })}\n`;

describe.each(AGENTS)("ringback-hook %s on a PermissionRequest", (agent) => {
  it("posts the ask to /permission-requests with the local key, and prints an allow from the phone", async () => {
    const { result, requests, payload } = await askWith(agent, decided("allow"));

    expect(result).toEqual({ code: 0, signal: null, stdout: ALLOW_OUTPUT, stderr: "" });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/permission-requests");
    expectSignedWithoutTheKey(request);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.origin).toBeUndefined();
    expect(PermissionRequestPost.parse(JSON.parse(request?.body ?? ""))).toEqual({
      agent,
      sessionId: payload.session_id,
      cwd: payload.cwd,
      // Codex's turn id; Claude Code (2.1.330) sends no tool_use_id with a PermissionRequest.
      ...(agent === "codex" ? { askId: payload.turn_id } : {}),
      toolName: "Bash",
      toolInput: payload.tool_input,
      lastWords: LAST_WORDS,
      permissionMode: payload.permission_mode,
      shortened: [],
    });
  });

  it("prints a deny with the person's reason for the agent", async () => {
    const { result } = await askWith(agent, decided("deny", "Not on the production database."));
    expect(result).toEqual({
      code: 0,
      signal: null,
      stdout: denyOutput("Not on the production database."),
      stderr: "",
    });
  });

  it("prints a deny without a reason with a message saying it came from the phone", async () => {
    const { result } = await askWith(agent, decided("deny"));
    expect(result.stdout).toBe(denyOutput("Denied from your phone."));
    expect(result.code).toBe(0);
  });

  it.each(["present", "expired", "not-linked", "failed"])(
    "prints nothing and exits 0 when the daemon answers %s",
    async (outcome) => {
      const { result, requests } = await askWith(agent, answer({ outcome }));
      expect(result).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
      expect(requests).toHaveLength(1);
    },
  );
});

describe("ringback-hook on each PermissionRequest payload the genuine CLIs sent", () => {
  it.each([
    ["permission-request-claude-code", "claude-code"],
    ["permission-request-claude-code-write", "claude-code"],
    ["permission-request-codex", "codex"],
    ["permission-request-codex-tui", "codex"],
  ] as [GenuinePermissionPayload, Agent][])(
    "asks the daemon with %s as it came, and prints the allow",
    async (name, agent) => {
      await using setup = await homeWithDaemon(decided("allow"));
      const { home, daemon } = setup;
      // Its transcript is not on this machine (one that cannot be read gives no last words).
      const payload: Payload = {
        ...(await readGenuinePayload(name)),
        transcript_path: join(home.path, "gone.jsonl"),
      };

      const result = await runAgentHook(agent, payload, hookEnv(home.path));

      expect(result).toEqual({ code: 0, signal: null, stdout: ALLOW_OUTPUT, stderr: "" });
      expect(PermissionRequestPost.parse(JSON.parse(daemon.requests[0]?.body ?? ""))).toEqual({
        agent,
        sessionId: payload.session_id,
        cwd: payload.cwd,
        ...(agent === "codex" ? { askId: payload.turn_id } : {}),
        toolName: payload.tool_name,
        toolInput: payload.tool_input,
        lastWords: null,
        permissionMode: "default",
        shortened: [],
      });
    },
  );
});

describe("ringback-hook never allows unless the daemon answered a whole decision to allow", () => {
  it.each([
    ["a decision without its reason and device", answer({ outcome: "decided", verdict: "allow" })],
    [
      "a verdict that is not allow or deny",
      answer({ outcome: "decided", verdict: "yes", reason: null, decidedOn: "x" }),
    ],
    ["an outcome it does not know", answer({ outcome: "allowed" })],
    ["a body that is not JSON", answer("allow")],
    ["a JSON array", answer([{ outcome: "decided", verdict: "allow", reason: null, decidedOn: "x" }])],
    [
      "a decision to allow with a 202",
      answer({ outcome: "decided", verdict: "allow", reason: null, decidedOn: "x" }, 202),
    ],
    ["a refusal", answer({ error: { code: "internal", message: "x" } }, 500)],
  ] as const)("prints nothing for %s", async (_, daemonAnswer) => {
    for (const agent of AGENTS) {
      const { result, requests } = await askWith(agent, daemonAnswer);
      expect(result).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
      expect(requests).toHaveLength(1);
    }
  });

  it("prints nothing for an allow without the daemon's proof (an older daemon, or another program on its port)", async () => {
    for (const agent of AGENTS) {
      const { result, requests } = await askWith(agent, decided("allow"), {}, { proves: false });
      expect(result).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
      expectSignedWithoutTheKey(requests[0]);
    }
    const debugging = await askWith(
      "codex",
      decided("allow"),
      { RINGBACK_HOOK_DEBUG: "1" },
      { proves: false },
    );
    expect(debugging.result.stdout).toBe("");
    expect(debugging.result.stderr).toMatch(
      /^ringback-hook: no decision: what answered on 127\.0\.0\.1:\d+ \(200\) did not prove it is your Ringback daemon: .* \(nothing was allowed: Codex asks you as usual\)\n$/,
    );
  });

  it("prints nothing and exits 0 when the daemon is not running", async () => {
    await using home = await makeTemporaryDirectory();
    await writeRingbackHome(join(home.path, ".ringback"), await freePort());
    for (const agent of AGENTS) {
      const result = await runAgentHook(agent, await permissionPayload(agent, home.path), hookEnv(home.path));
      expect(result).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
    }
  });

  it("prints nothing and posts nothing when the daemon has never run (no local key)", async () => {
    await using setup = await homeWithDaemon(decided("allow"));
    const { home, daemon } = setup;
    const result = await runAgentHook(
      "claude-code",
      await permissionPayload("claude-code", home.path),
      hookEnv(home.path, { RINGBACK_HOME: join(home.path, "never-ran") }),
    );
    expect(result).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
    expect(daemon.requests).toHaveLength(0);
  });

  it("prints nothing for a PermissionRequest payload without its tool", async () => {
    await using setup = await homeWithDaemon(decided("allow"));
    const { home, daemon } = setup;
    const { tool_name: _, ...payload } = await permissionPayload("codex", home.path);
    const result = await runAgentHook("codex", payload, hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }));
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toBe(
      "ringback-hook: not asked: stdin is not a PermissionRequest payload (tool_name is missing)\n",
    );
    expect(daemon.requests).toHaveLength(0);
  });
});

describe("ringback-hook fits a large ask into the daemon's body limit", () => {
  it("shortens an oversized tool input, marks it, and still passes the decision on", async () => {
    await using setup = await homeWithDaemon(decided("allow"));
    const { home, daemon } = setup;
    const content = "x".repeat(REPORT_BODY_MAX_BYTES + 100_000);
    const payload = {
      ...(await permissionPayload("claude-code", home.path)),
      tool_name: "Write",
      tool_input: { file_path: "/home/dev/shop-api/data/seed.json", content },
    };

    const result = await runAgentHook("claude-code", payload, hookEnv(home.path));

    expect(result).toEqual({ code: 0, signal: null, stdout: ALLOW_OUTPUT, stderr: "" });
    const body = daemon.requests[0]?.body ?? "";
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(REPORT_BODY_MAX_BYTES);
    const ask = PermissionRequestPost.parse(JSON.parse(body));
    expect(ask.shortened).toEqual(["toolInput"]);
    expect(ask.lastWords).toBe(LAST_WORDS);
    const input = ask.toolInput as { file_path: string; content: string };
    expect(input.file_path).toBe("/home/dev/shop-api/data/seed.json");
    expect(input.content).toMatch(/^x+ \[… cut by ringback-hook\]$/);
    expect(input.content.length).toBeGreaterThan(REPORT_BODY_MAX_BYTES / 2);
  });
});

describe("ringback-hook says what became of a permission request when debugging", () => {
  it("for an allow, a present person, and a daemon that is down", async () => {
    const allowed = await askWith("codex", decided("allow"), { RINGBACK_HOOK_DEBUG: "1" });
    expect(allowed.result.stdout).toBe(ALLOW_OUTPUT);
    expect(allowed.result.stderr).toBe("ringback-hook: allowed: Pixel 8 allowed it once; Codex goes on\n");

    const present = await askWith("claude-code", answer({ outcome: "present" }), {
      RINGBACK_HOOK_DEBUG: "1",
    });
    expect(present.result.stdout).toBe("");
    expect(present.result.stderr).toBe(
      'ringback-hook: not asked: the daemon says you are at this computer, so Claude Code asks you as usual; to be called instead, run `ringback away on` (or switch on "I\'m away" in the app)\n',
    );

    await using home = await makeTemporaryDirectory();
    const port = await freePort();
    await writeRingbackHome(join(home.path, ".ringback"), port);
    const down = await runAgentHook(
      "claude-code",
      await permissionPayload("claude-code", home.path),
      hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }),
    );
    expect(down.stdout).toBe("");
    expect(down.stderr).toBe(
      `ringback-hook: not asked: the daemon is not running on 127.0.0.1:${port}: start it with \`ringback run\` (or \`pnpm start\` in a clone) (Claude Code asks you as usual)\n`,
    );
  });

  it("--dry-run prints the ask it would send and posts nothing", async () => {
    await using setup = await homeWithDaemon(decided("allow"));
    const { home, daemon } = setup;
    const payload = await permissionPayload("codex", home.path);
    const result = await runAgentHook("codex", payload, hookEnv(home.path), "--dry-run");
    expect(result.code).toBe(0);
    expect(daemon.requests).toHaveLength(0);
    expect(PermissionRequestPost.parse(JSON.parse(result.stdout))).toMatchObject({
      agent: "codex",
      toolInput: payload.tool_input,
      lastWords: LAST_WORDS,
    });
  });
});
