import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../../packages/client/src/i18n/texts/core.ts";
import { UI_WAIT_MS } from "../harness/device.ts";
import { eventually } from "../harness/eventually.ts";
import { startSystem } from "../harness/system.ts";

const EXAMPLE = fileURLToPath(
  new URL("../../packages/client/examples/minimal-companion.ts", import.meta.url),
);
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** The example as its README says to run it: `node examples/minimal-companion.ts '<pairing link>'`, in its own folder. */
function runExample(
  cwd: string,
  link: string,
): { output: () => string; child: ChildProcessWithoutNullStreams } {
  const child = spawn(process.execPath, [EXAMPLE, link], { cwd });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  return { output: () => output, child };
}

describe("the @ringback/client README's minimal companion, beside the web app", () => {
  it("pairs by link, rings with the brief, and answering on Enter stops the page ringing", async () => {
    await using system = await startSystem();
    const page = await system.addDevice("page");
    const { link } = await system.daemon.pair();
    const example = runExample(system.directory.path, link);
    await system.agentFinishes("Done: the parser now handles empty input. All 31 tests pass.");
    const eventId = await page.waitForRinging();
    await eventually(() => example.output().includes("[Enter] answers"), UI_WAIT_MS, "the example ringing");
    expect(example.output()).toContain("\u0007Claude Code: ");
    expect(example.output()).toContain("the parser now handles empty input");

    example.child.stdin.write("\n");
    await page.waitForNoRinging();
    await eventually(() => example.output().includes("(stopped ringing"), UI_WAIT_MS, "the example stopping");
    await page.openCalls();
    expect(await page.historyStatus(eventId)).toBe(CORE_TEXTS.en.outcomeAnsweredElsewhere);
    expect(page.pageErrors).toEqual([]);
  });
});
