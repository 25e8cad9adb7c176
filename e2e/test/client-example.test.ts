import { fileURLToPath } from "node:url";
import { type StartedChild, startChild } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../../packages/client/src/i18n/texts/core.ts";
import { UI_WAIT_CHECKS } from "../harness/device.ts";
import { startSystem } from "../harness/system.ts";

const EXAMPLE = fileURLToPath(
  new URL("../../packages/client/examples/minimal-companion.ts", import.meta.url),
);

/** The example as its README says to run it: `node examples/minimal-companion.ts '<pairing link>'`, in its own folder. */
function runExample(cwd: string, link: string): StartedChild {
  return startChild({ args: [EXAMPLE, link], cwd, hasOpenStdin: true, name: "the example" });
}

describe("the @ringback/client README's minimal companion, beside the web app", () => {
  it("pairs by link, rings with the brief, and answering on Enter stops the page ringing", async () => {
    await using system = await startSystem();
    const page = await system.addDevice("page");
    const { link } = await system.daemon.pair();
    await using example = runExample(system.directory.path, link);
    await system.agentFinishes("Done: the parser now handles empty input. All 31 tests pass.");
    const eventId = await page.waitForRinging();
    await example.waitFor(() => example.output.includes("[Enter] answers"), "ringing", UI_WAIT_CHECKS);
    expect(example.output).toContain("\u0007Claude Code: ");
    expect(example.output).toContain("the parser now handles empty input");

    example.type("");
    await page.waitForNoRinging();
    await example.waitFor(() => example.output.includes("(stopped ringing"), "stopping", UI_WAIT_CHECKS);
    await page.openCalls();
    expect(await page.historyStatus(eventId)).toBe(CORE_TEXTS.en.outcomeAnsweredElsewhere);
    expect(page.pageErrors).toEqual([]);
  });
});
