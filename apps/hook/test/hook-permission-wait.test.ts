import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runHook } from "../src/run-hook.js";
import { homeWithDaemon } from "./support/fake-daemon.js";
import { readGenuinePayload, stdinFor } from "./support/fixtures.js";
import { hookEnv } from "./support/hook-process.js";

/** Everything written to a stream, as text. */
function collected(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString("utf8");
}

describe("a permission request the daemon holds beyond the hook's wait", () => {
  it("ends the wait with nothing printed, so the agent asks as usual", async () => {
    await using setup = await homeWithDaemon("hang");
    const { home, daemon } = setup;
    const payload = { ...(await readGenuinePayload("permission-request-codex")), transcript_path: null };
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const printed = collected(stdout);
    const said = collected(stderr);
    const waits: number[] = [];

    // The real wait is PERMISSION_WAIT_MS + 15 s; a short one stands in for it, the same code ends it.
    await runHook("codex", {
      stdin: Readable.from([stdinFor("codex", payload)]),
      stdout,
      stderr,
      env: hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" }),
      permissionWaitMs: 300,
      onPermissionWait: (waitMs) => waits.push(waitMs),
    });

    expect(daemon.requests.map((request) => request.url)).toEqual(["/permission-requests"]);
    expect(waits).toEqual([300]);
    expect(printed()).toBe("");
    expect(said()).toBe(
      `ringback-hook: not asked: the daemon on 127.0.0.1:${daemon.port} did not answer within the hook's 0.3 s wait: see the daemon's log, or run \`ringback doctor\` (Codex asks you as usual)\n`,
    );
  });
});
