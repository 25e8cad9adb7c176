import { copyFile, readdir } from "node:fs/promises";
import { dirname, join, parse } from "node:path";
import { ReportRequest } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { beforeAll, expect, it } from "vitest";
import { startFakeDaemon } from "./support/fake-daemon.js";
import { type Payload, readPayload, stdinFor } from "./support/fixtures.js";
import {
  assertBundleBuilt,
  HOOK_BUNDLE,
  hookEnv,
  runBundle,
  writeRingbackHome,
} from "./support/hook-process.js";

beforeAll(assertBundleBuilt);

async function ancestorsWithNodeModules(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (let current = directory; ; current = dirname(current)) {
    if ((await readdir(current)).includes("node_modules")) found.push(current);
    if (current === parse(current).root) return found;
  }
}

it("works as one file copied where no node_modules exists in any parent directory", async () => {
  await using bare = await makeTemporaryDirectory("ringback-hook-bare-");
  await using home = await makeTemporaryDirectory();
  await using daemon = await startFakeDaemon(202);
  const bundle = join(bare.path, "ringback-hook.mjs");
  await copyFile(HOOK_BUNDLE, bundle);
  expect(await ancestorsWithNodeModules(bare.path)).toEqual([]);
  await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
  const payload: Payload = { ...(await readPayload("claude-code-stop")), transcript_path: null };

  const result = await runBundle({
    bundle,
    args: ["claude-code"],
    stdin: stdinFor("claude-code", payload),
    env: hookEnv(home.path, { NODE_PATH: "" }),
    cwd: bare.path,
  });

  expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
  expect(daemon.requests).toHaveLength(1);
  expect(ReportRequest.parse(JSON.parse(daemon.requests[0]?.body ?? "")).text).toBe(
    payload.last_assistant_message,
  );
});
