import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { answerProof, requestProof } from "../src/http/local-proof/proof-message.js";
import { LOCAL_KEY_FILE } from "../src/runtime/keys/local-key.js";
import {
  daemonEnv,
  readLocalKey,
  runCli,
  setLocalPort,
  startDaemonOnItsPort,
  startDaemonProcess,
} from "./helpers/daemon-process.js";
import { runHookToEnd, startHook } from "./helpers/hook-process.js";
import { sendAgain, startImpostor } from "./helpers/impostor.js";
import { openCall, sealDecision } from "./helpers/permission-asks.js";
import { COMPUTER_ID, startPermissionHome } from "./helpers/permission-home.js";

/**
 * The hook and the daemon prove themselves to each other with the local key, which never leaves either (issue 34,
 * point 3): another user's program on the daemon's port gets nothing it can use, and cannot answer for the daemon.
 */

/** Claude Code's PermissionRequest payload (as fakes/agent-clis captured it), asking to run `command`. */
function permissionRequest(command: string, cwd: string) {
  return {
    session_id: `session-${randomBytes(4).toString("hex")}`,
    transcript_path: join(cwd, "gone.jsonl"),
    cwd,
    permission_mode: "default",
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command, description: "Runs it" },
  };
}

/** Claude Code's Stop payload for a finished turn. */
function stop(text: string, cwd: string) {
  return {
    session_id: `session-${randomBytes(4).toString("hex")}`,
    prompt_id: `prompt-${randomBytes(4).toString("hex")}`,
    transcript_path: "",
    cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: text,
  };
}

const ALLOW_OUTPUT =
  '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';
const ALLOW_ANSWER = JSON.stringify({
  outcome: "decided",
  verdict: "allow",
  reason: null,
  decidedOn: "Pixel 8",
});
const DEBUG = { RINGBACK_HOOK_DEBUG: "1" };

describe("another user's program on the daemon's port", () => {
  it("gets no local key nor a request the daemon takes again, and its allow allows nothing", async () => {
    await using home = await makeTemporaryDirectory();
    const localKey = randomBytes(32).toString("base64url");
    await writeFile(join(home.path, LOCAL_KEY_FILE), localKey, { mode: 0o600 });
    // It took the port daemon.json names before the daemon did, and answers "allow", forging a proof as best it can.
    const impostor = await startImpostor({ status: 200, body: ALLOW_ANSWER, forgedProof: "v1.forged" });
    const port = impostor.port;
    await setLocalPort(home.path, port);

    const asked = await runHookToEnd(
      "claude-code",
      home.path,
      permissionRequest("rm -rf ~", home.path),
      DEBUG,
    );
    const reported = await runHookToEnd("claude-code", home.path, stop("Done.", home.path), DEBUG);

    expect(asked.stdout).toBe("");
    expect(asked.stderr).toContain("did not prove it is your Ringback daemon");
    expect(asked.stderr).toContain("nothing was allowed: Claude Code asks you as usual");
    expect(reported.stderr).toContain("not proven, so maybe not sent");
    expect(impostor.captured).toHaveLength(2);
    for (const request of impostor.captured) {
      expect(request.toString("latin1")).not.toContain(localKey);
      expect(request.toString("latin1")).not.toMatch(/^authorization:/im);
    }

    // It lets go of the port, the daemon starts there, and the impostor sends what it kept, byte for byte.
    await impostor.close();
    await using daemon = await startDaemonOnItsPort(home.path);
    expect(daemon.port).toBe(port);
    for (const request of impostor.captured) expect(await sendAgain(port, request)).toBe(401);
    expect(daemon.stderr()).toContain(
      "refused a signed local request: it was signed before this daemon started",
    );
  });
});

describe("the CLI asking the running daemon", () => {
  it("never sends the local key to another program on the daemon's port, and does the job itself", async () => {
    await using home = await makeTemporaryDirectory();
    const localKey = randomBytes(32).toString("base64url");
    await writeFile(join(home.path, LOCAL_KEY_FILE), localKey, { mode: 0o600 });
    const presence = { away: false, since: new Date().toISOString(), changedBy: "the impostor" };
    await using impostor = await startImpostor({ status: 200, body: JSON.stringify(presence) });
    await setLocalPort(home.path, impostor.port);

    const away = await runCli(["away", "on"], daemonEnv(home.path));

    expect(impostor.captured).toHaveLength(1);
    expect(impostor.captured[0]?.toString("latin1")).not.toContain(localKey);
    expect(away.code).toBe(0);
    expect(away.stdout).not.toContain("the impostor");
  });

  it("doctor and ringback model send no key either, and doctor names the program on the port", async () => {
    await using home = await makeTemporaryDirectory();
    const localKey = randomBytes(32).toString("base64url");
    await writeFile(join(home.path, LOCAL_KEY_FILE), localKey, { mode: 0o600 });
    const settings = { channel: { model: "the impostor's", baseUrl: "http://127.0.0.1:9/v1", keyHint: "…" } };
    await using impostor = await startImpostor({ status: 200, body: JSON.stringify(settings) });
    await setLocalPort(home.path, impostor.port);

    const doctor = await runCli(["doctor"], daemonEnv(home.path));
    const model = await runCli(["model"], daemonEnv(home.path));

    expect(impostor.captured.length).toBeGreaterThanOrEqual(2);
    for (const request of impostor.captured) expect(request.toString("latin1")).not.toContain(localKey);
    expect(doctor.stdout).toContain(`port ${impostor.port} answers, but not as this data dir's daemon`);
    expect(model.code).not.toBe(0);
    expect(`${model.stdout}${model.stderr}`).not.toContain("the impostor's");
  });
});

describe("the real hook and the real daemon", () => {
  it("still ring, allow, deny and report, each answer proven", async () => {
    await using home = await startPermissionHome({ waitMs: 20_000 });
    await setLocalPort(home.path, home.daemon.port);
    expect((await home.local("PUT", "/presence", { away: true })).status).toBe(200);

    async function askAndDecide(command: string, verdict: "allow" | "deny", reason?: string) {
      const before = home.relay.posts.length;
      const hook = runHookToEnd("claude-code", home.path, permissionRequest(command, home.path), DEBUG);
      const post = await eventually(() => home.relay.posts[before], {
        what: "the call",
        on: home.relay.changes,
      });
      const digest = (await openCall(home.key, post)).needsYou?.toolInputDigest ?? "";
      const decision = {
        eventId: post.eventId,
        toolInputDigest: digest,
        verdict,
        deviceName: "Pixel 8",
        reason,
      };
      await home.relay.send(await sealDecision(home.key, COMPUTER_ID, decision));
      return hook;
    }

    const allowed = await askAndDecide("npm test", "allow");
    expect(allowed).toMatchObject({ code: 0, stdout: ALLOW_OUTPUT });
    expect(allowed.stderr).toBe("ringback-hook: allowed: Pixel 8 allowed it once; Claude Code goes on\n");

    const denied = await askAndDecide("git push --force", "deny", "Not on main.");
    expect(JSON.parse(denied.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "Not on main." },
      },
    });

    const reported = await runHookToEnd("claude-code", home.path, stop("All tests pass.", home.path), DEBUG);
    expect(reported.stderr).toBe(
      `ringback-hook: sent: the daemon on 127.0.0.1:${home.daemon.port} took the report (202) and will ring your devices\n`,
    );
    expect(home.daemon.stderr()).not.toContain("refused");
  });
});

describe("a hook the agent stops", () => {
  it("ends its call at the relay when the agent kills it (it decided on its own), so no device rings on", async () => {
    await using home = await startPermissionHome({ waitMs: 20_000 });
    await setLocalPort(home.path, home.daemon.port);
    expect((await home.local("PUT", "/presence", { away: true })).status).toBe(200);
    await using hook = startHook("claude-code", home.path, permissionRequest("rm -rf dist", home.path));
    const post = await eventually(() => home.relay.posts[0], { what: "the call", on: home.relay.changes });

    // Codex drops a hook it no longer waits for with a kill (kill_on_drop); Claude Code ends it when its own dialog
    // is answered. Either way the hook's connection to the daemon closes with it.
    await hook.stop("SIGKILL");

    const ended = await eventually(
      () => home.relay.statusWrites.find((write) => write.eventId === post.eventId),
      { what: "the call ended at the relay", on: home.relay.changes },
    );
    expect(ended.status).toBe("ended");
  });
});

describe("the daemon's signed form on the wire", () => {
  it("takes a signed request once and proves its answer; a copy within the window is refused by its nonce", async () => {
    await using home = await makeTemporaryDirectory();
    await using daemon = await startDaemonProcess(home.path);
    const localKey = await readLocalKey(home.path);
    const body = JSON.stringify({
      source: "claude-code",
      sessionId: "s-1",
      turnId: "t-1",
      cwd: home.path,
      text: "Done.",
    });
    const timestamp = Date.now();
    const nonce = randomBytes(16).toString("base64url");
    const parts = { method: "POST", port: daemon.port, path: "/report", timestamp, nonce };
    const proof = requestProof(localKey, { ...parts, body: Buffer.from(body) });
    const send = () =>
      fetch(`${daemon.url}/report`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "ringback-request-proof": `v1.${timestamp}.${nonce}.${proof}`,
        },
        body,
      });

    const taken = await send();
    const answer = Buffer.from(await taken.arrayBuffer());
    expect(taken.status).toBe(202);
    expect(taken.headers.get("ringback-answer-proof")).toBe(
      `v1.${answerProof(localKey, proof, 202, answer)}`,
    );

    const copy = await send();
    expect(copy.status).toBe(401);
    expect(copy.headers.get("ringback-answer-proof")).toBeNull();
    expect(daemon.stderr()).toContain("refused a signed local request: its nonce was used before");
  });
});
