import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  eventually,
  freePort,
  makeTemporaryDirectory,
  runToEnd,
  type StartedChild,
  startChild,
  type TemporaryDirectory,
} from "@ringback/test-kit";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumHandle, launchChromium } from "../harness/chromium.ts";
import { setLocalPort } from "../harness/daemon-files.ts";
import { UI_WAIT_CHECKS, UI_WAIT_MS } from "../harness/device.ts";
import { type FakeAgentCli, makeFakeAgentCli } from "../harness/fake-agent-cli.ts";
import { machineNetworkSettings, machinePath } from "../harness/machine-npm.ts";
import { ARTIFACTS_DIR, DAEMON_BIN, fromRoot, HOOK_BIN, RELAY_BIN } from "../harness/paths.ts";
import {
  cloneCommands,
  codeBlocks,
  type MarkdownSection,
  markdownSection,
  pinnedPnpmCommand,
  shellWords,
  textCommands,
} from "../harness/readme.ts";

// A newcomer walks the README: the Quick start's command, then the phone's way in (the printed pairing link opened
// on a phone), a ring, Answer, a typed Reply that resumes the agent. The commands come from the README itself and
// the ring command from what start prints, so neither can drift from what the repository provides.
const README = readFileSync(fromRoot("README.md"), "utf8");
const ROOT_PACKAGE = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as {
  packageManager: string;
  scripts: Record<string, string>;
};
const PNPM_VERSION = /^pnpm@(\S+)$/.exec(ROOT_PACKAGE.packageManager)?.[1] ?? "";
const QUICK_START = markdownSection(README, "Quick start");
/** What runs `ringback` in a clone, as the README says (the packages are not on npm yet). */
const CLONE_COMMANDS = cloneCommands(README);
/** Where the README tells a newcomer what to run after the Quick start: the phone's way and the next steps. */
const NEWCOMER_SECTIONS = [QUICK_START, ...["Ring a real phone", "After the quick start"].map(section)];
/** A phone: iPhone 12-15's screen in CSS pixels, touch, and the mobile viewport rules. */
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  locale: "en-US",
} as const;
const REPORT =
  "The README's quick start works from a clean home: the phone joined and rang. Shall I push it?";
const REPLY = "Yes, push it to a branch and open a pull request.";

function section(heading: string): MarkdownSection {
  return markdownSection(README, heading);
}

/** The Quick start's code blocks, each split on `&&` into `npx --yes pnpm@<version> <script>` commands. */
function quickStartBlocks(): string[][] {
  return codeBlocks(QUICK_START).map((block) => block.split("&&").map((part) => part.trim()));
}

/** A built CLI's `--help` (or `<command> --help`) text, run on this test's Node.js (the workspace's). */
const helpTexts = new Map<string, Promise<string>>();
function helpOf(bin: string, command?: string): Promise<string> {
  const key = `${bin} ${command ?? ""}`;
  let text = helpTexts.get(key);
  if (text === undefined) {
    text = runToEnd({ args: [bin, ...(command ? [command] : []), "--help"], timeoutMs: 60_000 }).then(
      (result) => `${result.stdout}\n${result.stderr}`,
    );
    helpTexts.set(key, text);
  }
  return text;
}

/** The options (`--name`) among a command's words. */
function optionsOf(words: readonly string[]): string[] {
  return words.filter((word) => word.startsWith("--")).map((word) => word.split("=")[0] ?? word);
}

/** Options of `words` that `help` does not list. */
function unlisted(words: readonly string[], help: string): string[] {
  return optionsOf(words).filter((option) => !new RegExp(`(^|[\\s\\[|])${option}\\b`, "m").test(help));
}

/** The daemon's commands, as `ringback --help` lists them (two spaces, the name, spaces, what it does). */
async function daemonCommands(): Promise<Set<string>> {
  const help = await helpOf(DAEMON_BIN);
  return new Set([...help.matchAll(/^ {2}([a-z][a-z-]*) {2,}\S/gm)].map((match) => match[1] ?? ""));
}

/** Why `command` (from the README's text) names nothing the repository provides; null when it does. */
async function whatIsMissing(command: string): Promise<string | null> {
  const words = shellWords(command);
  const [program = "", first, ...rest] = words;
  const pinned = pinnedPnpmCommand(command);
  if (program === "npx") {
    if (pinned === null) return "not `npx --yes pnpm@<version> <script>`";
    if (pinned.version !== PNPM_VERSION)
      return `pnpm@${pinned.version} is not the repository's ${ROOT_PACKAGE.packageManager}`;
    if (pinned.script !== "install" && !(pinned.script in ROOT_PACKAGE.scripts))
      return `no script "${pinned.script}" in the root package.json`;
    if (pinned.script === "start") {
      const missing = unlisted(pinned.args, await startHelp());
      if (missing.length > 0) return `start --help lists no ${missing.join(", ")}`;
    }
    return null;
  }
  if (program === "pnpm") {
    if (first === undefined || !(first in ROOT_PACKAGE.scripts))
      return `no script "${first ?? ""}" in the root package.json`;
    return first === "start" && unlisted(rest, await startHelp()).length > 0
      ? `start --help lists no ${unlisted(rest, await startHelp()).join(", ")}`
      : null;
  }
  if (program === "node") {
    if (first === undefined) return null;
    if (!existsSync(fromRoot(first))) return `no file ${first}`;
    const [subcommand, ...options] = rest;
    const help = await helpOf(fromRoot(first));
    if (
      subcommand !== undefined &&
      !subcommand.startsWith("-") &&
      !new RegExp(`\\b${subcommand}\\b`).test(help)
    )
      return `${first} --help names no command "${subcommand}"`;
    const missing = unlisted(options, help);
    return missing.length > 0 ? `${first} --help lists no ${missing.join(", ")}` : null;
  }
  if (program === "ringback") {
    // A newcomer has a clone, not the package: the README must say what runs `ringback` there, and it must run the
    // daemon package's own bin.
    const inClone = CLONE_COMMANDS.get("ringback");
    if (inClone === undefined)
      return "a clone has no `ringback`, and the README does not say what runs it there";
    const wrongCommand = await whyNotTheDaemonBin(inClone);
    if (wrongCommand !== null)
      return `the README's \`${inClone.join(" ")}\` for \`ringback\` ${wrongCommand}`;
    if (first === undefined) return null;
    if (!(await daemonCommands()).has(first)) return `ringback --help lists no command "${first}"`;
    const missing = unlisted(rest, await helpOf(DAEMON_BIN, first));
    return missing.length > 0 ? `ringback ${first} --help lists no ${missing.join(", ")}` : null;
  }
  const bin = program === "ringback-relay" ? RELAY_BIN : HOOK_BIN;
  const missing = unlisted(words.slice(1), await helpOf(bin));
  return missing.length > 0 ? `${program} --help lists no ${missing.join(", ")}` : null;
}

/** Why `words` (what the README says runs `ringback` in a clone) do not run the daemon's bin; null when they do. */
async function whyNotTheDaemonBin(words: readonly string[]): Promise<string | null> {
  const bin = JSON.parse(readFileSync(fromRoot("apps/daemon/package.json"), "utf8")).bin.ringback as string;
  if (words[0] === "node")
    return words.length === 2 && fromRoot(words[1] ?? "") === fromRoot(`apps/daemon/${bin}`)
      ? null
      : `is not the daemon's bin (apps/daemon/${bin})`;
  const pinned = pinnedPnpmCommand(words.join(" "));
  if (pinned === null || pinned.version !== PNPM_VERSION || pinned.args.length > 0)
    return `is neither \`node <the daemon's bin>\` nor \`npx --yes ${ROOT_PACKAGE.packageManager} <script>\``;
  const script = ROOT_PACKAGE.scripts[pinned.script];
  const [program, file, ...rest] = shellWords(script ?? "");
  if (program !== "node" || file === undefined || rest.length > 0)
    return `runs no \`node <file>\` script (the root package.json's "${pinned.script}" is "${script ?? ""}")`;
  // The script's own help must be the daemon's (the suite built it: the script skips its build here).
  const [viaScript, direct] = await Promise.all([
    runToEnd({
      args: [fromRoot(file), "--help"],
      env: { ...process.env, RINGBACK_NO_BUILD: "1" },
      timeoutMs: 60_000,
    }),
    helpOf(DAEMON_BIN),
  ]);
  return `${viaScript.stdout}\n${viaScript.stderr}` === direct ? null : "does not run the daemon's bin";
}

function startHelp(): Promise<string> {
  return helpOf(fromRoot("scripts/start.mjs"));
}

describe("the README's commands are the repository's", () => {
  it("the Quick start's two commands: install and start, install and test, with the pinned pnpm", () => {
    const blocks = quickStartBlocks();
    expect(blocks.length, "the Quick start's code blocks").toBeGreaterThanOrEqual(2);
    const scripts = blocks.slice(0, 2).map((parts) =>
      parts.map((part) => {
        const command = pinnedPnpmCommand(part);
        expect(command, `"${part}" is npx --yes pnpm@<version> <script>`).not.toBeNull();
        expect(command?.version, `the pnpm of "${part}"`).toBe(PNPM_VERSION);
        expect(command?.args, `"${part}" runs its script with no arguments`).toEqual([]);
        const script = command?.script ?? "";
        expect(
          script === "install" || script in ROOT_PACKAGE.scripts,
          `"${script}" (in "${part}") is install or a script of the root package.json`,
        ).toBe(true);
        return script;
      }),
    );
    expect(scripts).toEqual([
      ["install", "start"],
      ["install", "test"],
    ]);
  });

  it("every command its text tells a newcomer to run names something that exists", async () => {
    const commands = NEWCOMER_SECTIONS.flatMap(textCommands);
    // The sections do tell a newcomer what to run: the parse found their commands.
    expect(commands.map((command) => command.command)).toEqual(
      expect.arrayContaining(["ringback pair", "ringback install", "ringback away on"]),
    );
    const wrong: string[] = [];
    for (const { command, line } of commands) {
      const missing = await whatIsMissing(command);
      if (missing !== null) wrong.push(`README.md:${line}: \`${command}\`: ${missing}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("a newcomer: the Quick start, a phone joins by the printed link, rings, answers and replies", () => {
  let directory: TemporaryDirectory;
  let agent: FakeAgentCli;
  let start: StartedChild | undefined;
  let chromium: ChromiumHandle | undefined;

  beforeAll(async () => {
    directory = await makeTemporaryDirectory("ringback-newcomer-");
    agent = await makeFakeAgentCli(join(directory.path, "agent-bin"));
  });

  afterAll(async () => {
    try {
      await chromium?.[Symbol.asyncDispose]();
      // A test that failed half-way leaves nothing: the whole group is killed.
      await start?.[Symbol.asyncDispose]();
    } finally {
      await directory?.remove();
    }
  });

  /**
   * A newcomer's shell: an empty HOME (so ~/.ringback and ~/.ringback-relay start empty), the machine's PATH
   * without this workspace's bins (the README's `npx` on its own Node.js, the workspace's Node 24 only through
   * pnpm) and the fake `claude` first on it, which is what the daemon resumes a session with.
   */
  function newcomerEnv(home: string): NodeJS.ProcessEnv {
    return {
      ...machineNetworkSettings(),
      PATH: agent.pathWith(machinePath()),
      HOME: home,
      LANG: "en_US.UTF-8",
      // An npm cache of the newcomer's own: npx fetches the pinned pnpm from the registry, as on a machine that never
      // ran it, so a warm cache cannot hide the machine's CA or proxy settings going missing.
      npm_config_cache: join(home, ".npm"),
      // Not part of the README's command: the suite runs after turbo built everything (`test` depends on `build`),
      // and building again while the suite runs only costs time. start.test.ts starts it the same way.
      RINGBACK_START_NO_BUILD: "1",
    };
  }

  it("walks it as written, and the reply reaches the agent's CLI", async () => {
    // 1. The Quick start's start command, as written. Its `install` part is left out: this test runs inside the
    //    installed workspace (`pnpm test` itself starts with that install).
    const [, startPart] = quickStartBlocks()[0] ?? [];
    const startWords = shellWords(startPart ?? "");
    expect(pinnedPnpmCommand(startPart ?? "")?.script).toBe("start");
    // The README's own option for another relay port: 0 picks a free one, so the test collides with nothing.
    expect(QUICK_START.text.replace(/\s+/g, " ")).toMatch(
      /`--port PORT` moves the relay off \d+ \(0: any free port\)/,
    );
    const home = join(directory.path, "home");
    const dataDir = join(home, ".ringback");
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    // The daemon's local port (8790 by default, where the hook looks) is the one fixed port start uses; another
    // suite's daemon may hold it, so this home's daemon.json says another (apps/daemon/README.md, `localPort`).
    await setLocalPort(dataDir, await freePort());
    const env = newcomerEnv(home);
    start = startChild({
      command: startWords[0] ?? "",
      args: [...startWords.slice(1), "--port", "0"],
      cwd: fromRoot("."),
      env,
      isGroupLeader: true,
      name: startPart ?? "",
    });
    await start.waitFor(() => start?.stdout.includes("Press Ctrl-C to stop."), "it was started", 9_000);
    const screen = start.stdout;
    expect(screen).toContain(`(data: ${dataDir})`);
    // What a person sees is lines, not a stack trace.
    expect(start.stderr).not.toMatch(/^\s+at /m);
    // Nor a warning a person could not act on (engines, missing bins, telemetry notices: none is printed any more).
    expect(start.output).not.toMatch(/\bwarn(ing)?\b|telemetry/i);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await writeFile(join(ARTIFACTS_DIR, "newcomer-start-screen.txt"), start.output);

    // 2. The printed pairing link, opened on a phone: a tap first (a phone plays sound only after one), then Join.
    const link = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/#pair=\S+)$/m.exec(screen)?.[1];
    expect(link, "the pairing link on the start screen").toBeDefined();
    chromium = await launchChromium();
    const context = await chromium.browser.newContext(PHONE);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await page.goto(link ?? "");
    await page.getByTestId("welcome-screen").waitFor({ timeout: UI_WAIT_MS });
    await page.touchscreen.tap(4, 4);
    await page.getByLabel("This device's name").fill("My phone", { timeout: UI_WAIT_MS });
    await page.getByTestId("join-with-link").tap({ timeout: UI_WAIT_MS });
    await page.getByTestId("idle-screen").waitFor({ timeout: UI_WAIT_MS });
    await page
      .locator('[data-testid="connection-status"][data-state="open"]')
      .waitFor({ timeout: UI_WAIT_MS });

    // 3. The ring command the start screen prints, with this report's words in place of its example's.
    const ringLine = /Then make it ring, from another terminal:\n {2}(.+)\n/.exec(screen)?.[1] ?? "";
    // Its example's words (the quoted last word) give way to this report's.
    const ringCommand = ringLine.replace(/ "[^"]*"$/, "");
    expect(pinnedPnpmCommand(ringCommand)?.script, `"${ringLine}"`).toBe("ring");
    const [ringProgram = "", ...ringArgs] = shellWords(ringCommand);
    const ring = await runToEnd({
      command: ringProgram,
      args: [...ringArgs, REPORT],
      cwd: fromRoot("."),
      env,
      name: ringLine,
      timeoutMs: 120_000,
    });
    expect(ring.code, `${ring.stdout}\n${ring.stderr}`).toBe(0);
    const session = await reportedSession(dataDir);
    expect(await realpath(session.cwd)).toBe(await realpath(fromRoot(".")));

    // 4. It rings; Answer; the call shows the report; a reply typed in the call and sent.
    const ringing = page.getByTestId("ringing-screen");
    await ringing.waitFor({ timeout: UI_WAIT_MS });
    const eventId = (await ringing.getAttribute("data-event-id")) ?? "";
    await ringing.getByTestId("answer-button").tap({ timeout: UI_WAIT_MS });
    const inCall = page.locator(`[data-testid="in-call-screen"][data-event-id="${eventId}"]`);
    await inCall.waitFor({ timeout: UI_WAIT_MS });
    expect(await inCall.getByTestId("original-report").textContent()).toContain(REPORT);
    const replyBox = inCall.getByTestId("in-call-reply");
    await replyBox.getByTestId("reply-input").fill(REPLY, { timeout: UI_WAIT_MS });
    await replyBox.getByTestId("send-reply").tap({ timeout: UI_WAIT_MS });
    const line = replyBox.getByTestId("reply-line");
    await line.waitFor({ timeout: UI_WAIT_MS });
    expect(await line.locator(".reply-text").textContent()).toBe(REPLY);
    await line
      .locator('[data-testid="reply-status"][data-kind="delivered"]')
      .waitFor({ timeout: UI_WAIT_MS });

    // 5. The daemon resumed the reported session with the reply, once, in the directory the ring reported.
    const runs = await agent.runs();
    expect(runs.map((run) => run.argv)).toEqual([["--resume", session.id, "-p", REPLY]]);
    expect(await realpath(runs[0]?.cwd ?? "")).toBe(await realpath(session.cwd));
    expect(pageErrors).toEqual([]);
    await fitsTheScreen(page);
    await page.screenshot({ path: join(ARTIFACTS_DIR, "newcomer-in-call-390.png"), fullPage: true });
    await context.close();

    // 6. "Add more devices later ... with `ringback pair`": in a clone, what the README says runs `ringback`, on the
    //    machine's own `node`.
    const pair = NEWCOMER_SECTIONS.flatMap(textCommands).find(({ command }) => command === "ringback pair");
    const [node = "", ...daemonArgs] = CLONE_COMMANDS.get("ringback") ?? [];
    expect(pair, "the README's `ringback pair`").toBeDefined();
    const paired = await runToEnd({
      command: node,
      args: [...daemonArgs, ...shellWords(pair?.command ?? "").slice(1)],
      cwd: fromRoot("."),
      env,
      name: "ringback pair",
      timeoutMs: 120_000,
    });
    expect(paired.code, paired.stderr).toBe(0);
    expect(paired.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#pair=/);

    // 7. Ctrl-C's signal to the whole group: start, pnpm, npx, the relay and the daemon all end.
    await stopGroup(start);
  }, 600_000);
});

/** The one session the daemon was told of (`sessions.json` of its data dir): the ring's, to resume. */
async function reportedSession(dataDir: string): Promise<{ id: string; cwd: string }> {
  return eventually(
    async () => {
      let text: string;
      try {
        text = await readFile(join(dataDir, "sessions.json"), "utf8");
      } catch {
        return null;
      }
      const sessions = Object.entries(
        (JSON.parse(text) as { sessions?: Record<string, { cwd: string }> }).sessions ?? {},
      );
      if (sessions.length === 0) return null;
      expect(sessions).toHaveLength(1);
      const [id = "", { cwd = "" } = {}] = sessions[0] ?? [];
      return { id, cwd };
    },
    { what: "the daemon to remember the ring's session", checks: UI_WAIT_CHECKS },
  );
}

/** The in-call screen fits the phone's width: nothing scrolls sideways. */
async function fitsTheScreen(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  }));
  expect(widths.content, "the page's width on a 390 px phone").toBeLessThanOrEqual(widths.screen);
}

/** SIGTERM to the process group `pnpm start` leads (what Ctrl-C reaches), then waits until none of it is left. */
async function stopGroup(child: StartedChild): Promise<void> {
  const pid = child.pid;
  await child.stop("SIGTERM");
  await eventually(
    () => {
      try {
        process.kill(-pid, 0);
        return false;
      } catch {
        return true;
      }
    },
    { what: "every process of pnpm start to end", checks: UI_WAIT_CHECKS },
  );
}
