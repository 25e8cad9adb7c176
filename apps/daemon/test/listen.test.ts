import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { withStatus } from "@ringback/client";
import { generateKey } from "@ringback/e2e-crypto";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordFor } from "../../../packages/client/test/fixtures.js";
import { findDesktopNotifier } from "../src/listen/desktop-notifier.js";
import { parseListenOptions } from "../src/listen/listen-options.js";
import { inCallText, ringingText, stoppedText } from "../src/listen/terminal-call.js";
import { runCli } from "./helpers/daemon-process.js";
import { terminalCompanion } from "./helpers/listening-terminal.js";

let temp: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
beforeEach(async () => {
  temp = await makeTemporaryDirectory();
});
afterEach(async () => {
  await temp.remove();
});

const AT = "2026-11-25T10:00:00.000Z";

/** A Codex call about the CSV importer, as the terminal receives it; its brief failed when `isBriefFailed`. */
function callRecord(options: { isBriefFailed?: boolean } = {}) {
  return recordFor({
    eventId: "e1",
    source: "codex",
    occurredAt: AT,
    text: "Fixed the CSV importer.\nAll 57 tests pass.",
    isBriefFailed: options.isBriefFailed,
    brief: options.isBriefFailed
      ? { title: "CSV importer fixed" }
      : {
          title: "CSV importer fixed",
          spoken: "The importer skips empty rows now. Every test passes.",
          cards: [{ title: "Tests", body: "57 of 57 pass." }],
          openQuestions: ["Release today?"],
        },
  });
}

describe("ringback listen's options", () => {
  it("joins by link or by code, else uses the saved device in {data_dir}/listen", () => {
    const env = { RINGBACK_HOME: "/home/u/.rb" };
    expect(parseListenOptions(["--pair", "https://r.example/#p=1"], env)).toMatchObject({
      join: { kind: "link", link: "https://r.example/#p=1" },
      dir: "/home/u/.rb/listen",
      deviceName: "Terminal",
      isNotifying: true,
    });
    expect(
      parseListenOptions(["--server", "https://r.example", "--code", "123456", "--passphrase-stdin"], env)
        .join,
    ).toEqual({ kind: "code", serverUrl: "https://r.example", code: "123456", isPassphraseOnStdin: true });
    expect(
      parseListenOptions(["--no-notify", "--name", " Desk "], { ...env, RINGBACK_LISTEN_DIR: "/x" }),
    ).toMatchObject({ join: { kind: "saved" }, dir: "/x", deviceName: "Desk", isNotifying: false });
  });

  it("refuses options that do not go together, naming what to do", () => {
    expect(() => parseListenOptions(["--pair", "l", "--code", "1"], {})).toThrow(
      /--pair takes no --server or --code/,
    );
    expect(() => parseListenOptions(["--code", "123456"], {})).toThrow(/needs both --server and --code/);
    expect(() => parseListenOptions(["--passphrase-stdin"], {})).toThrow(
      /--passphrase-stdin goes with --code/,
    );
    expect(() => parseListenOptions(["--name", "  "], {})).toThrow(/--name must not be empty/);
    expect(() => parseListenOptions(["--bogus"], {})).toThrow();
  });
});

describe("the terminal's call texts", () => {
  it("rings with the bell, the caller, the brief and the keys", () => {
    const text = ringingText(callRecord(), "Codex");
    expect(text.startsWith("\u0007")).toBe(true);
    expect(text).toContain("Incoming call: Codex");
    expect(text).toContain("CSV importer fixed");
    expect(text).toContain("The importer skips empty rows now.");
    expect(text).toContain("a = answer   r = reject   k = acknowledge");
  });

  it("shows the agent's own words when the brief failed", () => {
    const text = ringingText(callRecord({ isBriefFailed: true }), "Codex");
    expect(text).toContain(
      "The brief could not be written; the agent said:\nFixed the CSV importer.\nAll 57 tests pass.",
    );
  });

  it("shows the brief in full once answered: cards, open questions and the agent's report", () => {
    const text = inCallText(callRecord(), "Codex");
    expect(text).toContain("• Tests: 57 of 57 pass.");
    expect(text).toContain("? Release today?");
    expect(text).toContain("The agent's report:\nFixed the CSV importer.");
  });

  it("says why a call stopped ringing", () => {
    const record = callRecord();
    expect(stoppedText(withStatus(record, { state: "ended", outcome: "answered-elsewhere" }))).toBe(
      "Answered on another device.",
    );
    expect(stoppedText(withStatus(record, { state: "missed" }))).toMatch(/^Missed/);
    expect(stoppedText(withStatus(record, { state: "ended", outcome: "expired" }))).toMatch(/^Expired/);
  });
});

describe("desktop notifications", () => {
  it("are sent through notify-send when the PATH has it, with the title and the brief's title", async () => {
    const bin = join(temp.path, "bin");
    const recorded = join(temp.path, "recorded.txt");
    await mkdir(bin);
    await writeFile(join(bin, "notify-send"), `#!/bin/sh\nprintf '%s\\n' "$@" > '${recorded}'\n`);
    await chmod(join(bin, "notify-send"), 0o755);
    const notifier = await findDesktopNotifier({ PATH: `${join(temp.path, "none")}:${bin}` });
    notifier?.notify("Ringback: Codex", "CSV importer fixed");
    await eventually(async () =>
      (await readFile(recorded, "utf8").catch(() => "")).includes("CSV importer fixed"),
    );
    expect((await readFile(recorded, "utf8")).split("\n")).toEqual([
      "--app-name=Ringback",
      "--urgency=critical",
      "Ringback: Codex",
      "CSV importer fixed",
      "",
    ]);
  });

  it("are skipped where notify-send does not exist, or is not executable", async () => {
    await writeFile(join(temp.path, "notify-send"), "not a program");
    expect(await findDesktopNotifier({ PATH: temp.path })).toBeNull();
    expect(await findDesktopNotifier({})).toBeNull();
  });
});

describe("the terminal's commands", () => {
  it("say what is possible when nothing rings, and name the commands for an unknown one", async () => {
    const { session, written } = terminalCompanion("http://127.0.0.1:9", generateKey());
    for (const line of ["a", "r", "h", "k", "reply hello", "dance"]) await session.command(line);
    expect(written).toEqual([
      "No call is ringing.\n",
      "No call is ringing.\n",
      "No call is in progress.\n",
      "No missed calls.\n",
      "Answer a call first: a reply goes to the agent of the call answered here.\n",
      'Unknown command "dance": a answer, r reject, k acknowledge, h hang up, reply <text>, s status, q quit.\n',
    ]);
  });
});

describe("the ringback listen command", () => {
  it("tells a terminal that never joined how to join, and exits 1", async () => {
    const result = await runCli(["listen", "--dir", join(temp.path, "listen")], {
      PATH: process.env.PATH,
      HOME: temp.path,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("this terminal has not joined an account yet: ringback listen --pair");
  });

  it("refuses a pairing link that is not one, without creating a device", async () => {
    const result = await runCli(["listen", "--pair", "not a link", "--dir", join(temp.path, "listen")], {
      PATH: process.env.PATH,
      HOME: temp.path,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ringback: /);
    expect(result.stderr).toContain("could not join the account: Not a pairing link");
    expect(result.stderr).not.toContain("unexpected error");
    await expect(readFile(join(temp.path, "listen", "device.store"))).rejects.toThrow(/ENOENT/);
  });

  it("prints its usage with --help", async () => {
    const result = await runCli(["listen", "--help"], { PATH: process.env.PATH, HOME: temp.path });
    expect(result.stdout).toContain("ringback listen [--pair <link>");
    expect(result.code).toBe(0);
  });
});
