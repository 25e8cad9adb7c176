import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ReportRequest } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { REPORT_BODY_MAX_BYTES } from "../src/daemon-call/protocol-constants.js";
import { type FakeDaemon, startFakeDaemon } from "./support/fake-daemon.js";
import { type Payload, readPayload, stdinFor } from "./support/fixtures.js";
import {
  assertBundleBuilt,
  HOOK_BUNDLE,
  hookEnv,
  type RunOptions,
  runBundle,
  runShellCommand,
  writeRingbackHome,
} from "./support/hook-process.js";

beforeAll(assertBundleBuilt);

const HOOK = `"${process.execPath}" "${HOOK_BUNDLE}" claude-code`;

interface Setup extends AsyncDisposable {
  home: TemporaryDirectory;
  daemon: FakeDaemon;
  payload: Payload;
  /** The payload as Claude Code writes it, in a file. */
  payloadFile: string;
}

async function setUp(payloadChanges: Payload = {}): Promise<Setup> {
  const home = await makeTemporaryDirectory();
  const daemon = await startFakeDaemon(202);
  await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
  const payload = { ...(await readPayload("claude-code-stop")), transcript_path: null, ...payloadChanges };
  const payloadFile = join(home.path, "payload.json");
  await writeFile(payloadFile, stdinFor("claude-code", payload));
  return {
    home,
    daemon,
    payload,
    payloadFile,
    [Symbol.asyncDispose]: async () => {
      await daemon[Symbol.asyncDispose]();
      await home[Symbol.asyncDispose]();
    },
  };
}

function reportedTexts(daemon: FakeDaemon): string[] {
  return daemon.requests.map((request) => ReportRequest.parse(JSON.parse(request.body)).text);
}

/** Preloaded into the hook: writes a mark on descriptor 2 each time its stdin stream receives a chunk. */
const MARK_STDIN_READS = `data:text/javascript,const stdin=process.stdin;const push=stdin.push;stdin.push=function(chunk,...rest){if(chunk!==null)process.getBuiltinModule("node:fs").writeSync(2,"stdin-read\\n");return push.call(this,chunk,...rest)}`;

function stdinReads(stderr: string): number {
  return stderr.split("stdin-read\n").length - 1;
}

/**
 * Writes `text` in `pieces`, each once the hook has read the one before, then ends it: an agent that writes its
 * payload slowly, with the hook waiting on an empty stdin in between.
 */
function writeInPieces(text: string, pieces: number): NonNullable<RunOptions["stdin"]> {
  return async (stdin, child) => {
    const size = Math.ceil(text.length / pieces);
    for (let piece = 0; piece < pieces; piece++) {
      stdin.write(text.slice(piece * size, (piece + 1) * size));
      // The hook has read as many chunks as pieces were written: its stdin is empty, the next piece may go.
      await child.waitFor(() => stdinReads(child.stderr) > piece, `the hook to read piece ${piece + 1}`);
    }
    stdin.end();
  };
}

// Every kind of stdin an agent or a person may give the hook.
describe("ringback-hook reads its stdin", () => {
  const debugEnv = (home: TemporaryDirectory) => hookEnv(home.path, { RINGBACK_HOOK_DEBUG: "1" });

  it("from a shell pipe", async () => {
    await using setup = await setUp();
    const result = await runShellCommand(`cat "${setup.payloadFile}" | ${HOOK}`, {
      env: debugEnv(setup.home),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/^ringback-hook: sent: the daemon on 127\.0\.0\.1:\d+ took the report/);
    expect(reportedTexts(setup.daemon)).toEqual([setup.payload.last_assistant_message]);
  });

  it("from a file", async () => {
    await using setup = await setUp();
    const result = await runShellCommand(`${HOOK} < "${setup.payloadFile}"`, { env: debugEnv(setup.home) });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(reportedTexts(setup.daemon)).toEqual([setup.payload.last_assistant_message]);
  });

  it("written slowly, in pieces", async () => {
    await using setup = await setUp();
    const result = await runBundle({
      nodeOptions: ["--import", MARK_STDIN_READS],
      args: ["claude-code"],
      stdin: writeInPieces(stdinFor("claude-code", setup.payload), 4),
      env: debugEnv(setup.home),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(stdinReads(result.stderr)).toBeGreaterThanOrEqual(4);
    expect(reportedTexts(setup.daemon)).toEqual([setup.payload.last_assistant_message]);
  });

  it("larger than a pipe holds, and reports it cut to the daemon's body limit", async () => {
    const reply = "Refactored the billing module. ".repeat(100_000);
    await using setup = await setUp({ last_assistant_message: reply });
    const result = await runShellCommand(`cat "${setup.payloadFile}" | ${HOOK}`, {
      env: debugEnv(setup.home),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(setup.daemon.requests).toHaveLength(1);
    expect(Buffer.byteLength(setup.daemon.requests[0]?.body ?? "")).toBeLessThanOrEqual(
      REPORT_BODY_MAX_BYTES,
    );
    const [text] = reportedTexts(setup.daemon);
    expect(text?.length).toBeGreaterThan(700_000);
    expect(reply.startsWith((text ?? "").slice(0, 700_000))).toBe(true);
  });

  it("from /dev/null or a closed stdin, reporting nothing", async () => {
    await using setup = await setUp();
    for (const redirect of ["< /dev/null", "<&-"]) {
      const result = await runShellCommand(`${HOOK} ${redirect}`, { env: debugEnv(setup.home) });
      expect(result).toMatchObject({ code: 0, stdout: "" });
      expect(result.stderr).toContain("not reported: stdin is not JSON");
    }
    expect(setup.daemon.requests).toHaveLength(0);
  });
});
