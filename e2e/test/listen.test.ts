import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { eventually } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_TEXTS } from "../../packages/client/src/i18n/texts/core.ts";
import type { Device } from "../harness/device.ts";
import { type RingbackSystem, startSystem } from "../harness/system.ts";
import {
  startTerminalCompanion,
  TERMINAL_WAIT_CHECKS,
  type TerminalCompanion,
} from "../harness/terminal-companion.ts";

const texts = CORE_TEXTS.en;
let system: RingbackSystem;
let page: Device;
let terminal: TerminalCompanion;
let listenDir: string;
let notifications: string;
let binDir: string;
let pairingKey: string;

beforeAll(async () => {
  system = await startSystem();
  page = await system.addDevice("page");
  listenDir = join(system.directory.path, "listen");
  // A notify-send that records what it was asked to show, first on the terminal's PATH.
  binDir = join(system.directory.path, "bin");
  notifications = join(system.directory.path, "notifications.txt");
  await mkdir(binDir);
  await writeFile(
    join(binDir, "notify-send"),
    `#!/bin/sh\nprintf '%s|' "$@" >> '${notifications}'\necho >> '${notifications}'\n`,
  );
  await chmod(join(binDir, "notify-send"), 0o755);
  const { link, key } = await system.daemon.pair();
  pairingKey = key;
  terminal = startTerminalCompanion(
    system.home,
    ["--pair", link, "--dir", listenDir, "--name", "Desk terminal"],
    {
      PATH: `${binDir}:${process.env.PATH}`,
    },
  );
  await terminal.waitFor("Listening for calls.");
});

afterAll(async () => {
  await terminal?.[Symbol.asyncDispose]();
  await system?.[Symbol.asyncDispose]();
});

describe("ringback listen, a terminal companion beside the web app", () => {
  it("keeps the joined device in a folder only the user can read", async () => {
    expect((await stat(listenDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(listenDir, "device.store"))).mode & 0o777).toBe(0o600);
    // The key and the device token are kept there, and never shown.
    const stored = JSON.stringify([
      ...(deserialize(await readFile(join(listenDir, "device.store"))) as Map<string, unknown>),
    ]);
    const token = /"deviceToken":"([^"]+)"/.exec(stored)?.[1] ?? "";
    expect(token.length).toBeGreaterThan(10);
    expect(terminal.output()).not.toContain(token);
    expect(terminal.output()).not.toContain(pairingKey);
  });

  it("rings both; answering in the terminal stops the page, which says it was answered on another device", async () => {
    const mark = terminal.output().length;
    await system.agentFinishes("Done: the importer now skips empty rows. All 57 tests pass.");
    const eventId = await page.waitForRinging();
    const ringing = await terminal.waitFor("Incoming call: Claude Code", mark);
    expect(terminal.output().slice(mark)).toContain("\u0007");
    expect(terminal.output().slice(mark)).toContain("the importer now skips empty rows");
    await eventually(
      async () => (await readFile(notifications, "utf8").catch(() => "")).includes("Ringback: Claude Code"),
      { what: "notify-send", checks: TERMINAL_WAIT_CHECKS },
    );

    terminal.type("a");
    await terminal.waitFor("In call with Claude Code", ringing);
    await page.waitForNoRinging();
    await page.openCalls();
    expect(await page.historyStatus(eventId)).toBe(texts.outcomeAnsweredElsewhere);

    terminal.type("h");
    await terminal.waitFor("Call ended.", ringing);
    terminal.type("reply Thanks, merge it.");
    await terminal.waitFor("Reply sent to the agent's computer.", ringing);
  });

  it("rings both; answering on the page stops the terminal, which says so", async () => {
    await page.reload();
    const mark = terminal.output().length;
    await system.agentFinishes("Done: retries now back off exponentially. All 60 tests pass.");
    const eventId = await page.waitForRinging();
    const ringing = await terminal.waitFor("Incoming call: Claude Code", mark);
    await page.answer(eventId);
    await terminal.waitFor("Answered on another device.", ringing);
    await page.hangUp(eventId);
  });

  it("rejects from the terminal, and acknowledges a call so every device stops ringing", async () => {
    let mark = terminal.output().length;
    await system.agentFinishes("Done: first of two.");
    await page.waitForRinging();
    mark = await terminal.waitFor("Incoming call", mark);
    terminal.type("r");
    await page.waitForNoRinging();

    await system.agentFinishes("Done: second of two.");
    await page.waitForRinging();
    mark = await terminal.waitFor("Incoming call", mark);
    terminal.type("k");
    await page.waitForNoRinging();
    expect(terminal.output().slice(mark)).not.toContain("Unknown command");
  });

  it("comes back with the saved device after a restart, without ringing again for calls already settled", async () => {
    terminal.type("q");
    expect(await terminal.exited()).toBe(0);
    terminal = startTerminalCompanion(system.home, ["--dir", listenDir], {
      PATH: `${binDir}:${process.env.PATH}`,
    });
    await terminal.waitFor("Listening for calls.");
    expect(terminal.output()).toContain("This terminal listens with its saved device");
    const mark = terminal.output().length;
    await system.agentFinishes("Done: after the restart.");
    await terminal.waitFor("after the restart", mark);
    expect(terminal.output().match(/Incoming call/g)).toHaveLength(1);
  });
});
