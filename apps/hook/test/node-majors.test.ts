import { join } from "node:path";
import { nodeMajors } from "@ringback/node-majors";
import { ReportRequest } from "@ringback/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeDaemon } from "./support/fake-daemon.js";
import { type Payload, readPayload, stdinFor } from "./support/fixtures.js";
import { assertBundleBuilt, hookEnv, runBundle, writeRingbackHome } from "./support/hook-process.js";
import { makeTempDir } from "./support/temp-dir.js";

beforeAll(assertBundleBuilt);

// The hook takes libuv's handles on Node 22, 24 and 26 only (src/libuv-transport.ts): each is run here.
const majors = [
  { major: Number(process.versions.node.split(".")[0]), path: process.execPath as string | undefined },
  ...nodeMajors(),
];

/** Preloaded: writes the built-in modules the process loaded as it exits, straight to descriptor 2 (no stream). */
const PRINT_LOADED_MODULES = `data:text/javascript,process.on("exit",()=>process.getBuiltinModule("node:fs").writeSync(2,"loaded-modules="+JSON.stringify(process.moduleLoadList)+"\\n"))`;

function loadedModules(stderr: string): string[] {
  const line = /^loaded-modules=(.*)$/m.exec(stderr)?.[1];
  if (!line) throw new Error(`the hook printed no module list: ${stderr}`);
  return JSON.parse(line) as string[];
}

async function runOn(node: string, env: NodeJS.ProcessEnv = {}, nodeOptions: string[] = []) {
  await using home = await makeTempDir();
  await using daemon = await startFakeDaemon(202);
  await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
  const payload: Payload = { ...(await readPayload("claude-code-stop")), transcript_path: null };
  const result = await runBundle({
    node,
    nodeOptions,
    args: ["claude-code"],
    stdin: stdinFor("claude-code", payload),
    env: hookEnv(home.path, env),
  });
  const texts = daemon.requests.map((request) => ReportRequest.parse(JSON.parse(request.body)).text);
  return { result, texts, expectedText: payload.last_assistant_message };
}

describe.each(majors)("ringback-hook on Node $major", ({ major, path }) => {
  if (!path && process.env.CI)
    throw new Error(`Node ${major} is missing: pnpm install brings it on Linux x64`);

  it.skipIf(!path)(
    "reports a turn through libuv's handles, loading neither node:net nor node:stream",
    async () => {
      const node = path as string;
      const silent = await runOn(node, {}, ["--import", PRINT_LOADED_MODULES]);
      expect(silent.result).toMatchObject({ code: 0, stdout: "" });
      expect(silent.texts).toEqual([silent.expectedText]);
      const modules = loadedModules(silent.result.stderr);
      expect(modules).toContain("Internal Binding tcp_wrap");
      expect(modules).not.toContain("NativeModule net");
      expect(modules).not.toContain("NativeModule stream");

      const debugging = await runOn(node, { RINGBACK_HOOK_DEBUG: "1" });
      expect(debugging.result.stderr).toMatch(/answered 202 over libuv handles\n$/);
      expect(debugging.texts).toEqual([debugging.expectedText]);
    },
  );

  it.skipIf(!path)("reports over node:net with RINGBACK_HOOK_TRANSPORT=net", async () => {
    const { result, texts, expectedText } = await runOn(path as string, {
      RINGBACK_HOOK_TRANSPORT: "net",
      RINGBACK_HOOK_DEBUG: "1",
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/answered 202 over node:net\n$/);
    expect(texts).toEqual([expectedText]);
  });

  it.skipIf(!path)("stays silent and uses node:net when deprecations are made loud", async () => {
    // process.binding would print a deprecation warning under --pending-deprecation and throw under
    // --throw-deprecation: the hook must not make an agent's log noisy, nor fail.
    for (const option of ["--pending-deprecation", "--throw-deprecation"]) {
      const viaOptions = await runOn(path as string, { NODE_OPTIONS: option });
      expect(viaOptions.result).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
      expect(viaOptions.texts).toEqual([viaOptions.expectedText]);
      const viaArgv = await runOn(path as string, { RINGBACK_HOOK_DEBUG: "1" }, [option]);
      expect(viaArgv.result.stderr).toMatch(
        /^ringback-hook: daemon on 127\.0\.0\.1:\d+ answered 202 over node:net\n$/,
      );
    }
  });
});

it("still reports over node:net when a libuv handle throws as it is made (a Node that changed it)", async () => {
  // node:net takes its own reference to the real TCP handle first; the hook then finds one that throws.
  const changedTcp = `data:text/javascript,process.getBuiltinModule("node:net");const t=process.binding("tcp_wrap");const real=t.TCP;t.TCP=function(){throw new TypeError("changed")};t.TCP.prototype=real.prototype`;
  const { result, texts, expectedText } = await runOn(process.execPath, { RINGBACK_HOOK_DEBUG: "1" }, [
    "--import",
    changedTcp,
  ]);
  expect(result).toMatchObject({ code: 0, stdout: "" });
  expect(result.stderr).toMatch(/answered 202 over node:net \(libuv handles failed to open\)\n$/);
  expect(texts).toEqual([expectedText]);
});
