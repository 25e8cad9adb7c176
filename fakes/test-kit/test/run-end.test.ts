import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { eventually, isRunning, makeTemporaryDirectory, startChild } from "../src/index.js";

/** run-end.ts imports nothing, so a plain Node.js child loads it as it is (types stripped). */
const RUN_END = fileURLToPath(new URL("../src/run-end.ts", import.meta.url));

/** A program that registers a cleanup printing "cleaned up", says "ready" and idles until it is ended. */
const WITH_CLEANUP = `
  import { writeSync } from "node:fs";
  const { onRunEnd } = await import(${JSON.stringify(RUN_END)});
  onRunEnd(() => writeSync(1, "cleaned up\\n"));
  const stopWatching = onRunEnd(() => writeSync(1, "unregistered, yet run\\n"));
  stopWatching();
  console.log("ready");
  setInterval(() => {}, 1000);
`;

describe("onRunEnd", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)(
    "runs the cleanups when %s ends the process, which still dies of it",
    async (signal) => {
      await using child = startChild({ args: ["--input-type=module", "-e", WITH_CLEANUP] });
      await child.waitForMatch(/ready/, "its ready line");
      expect(await child.stop(signal)).toEqual({ code: null, signal });
      await child.closed;
      expect(child.stdout).toBe("ready\ncleaned up\n");
    },
  );

  it("runs them on a normal exit", async () => {
    await using child = startChild({
      args: ["--input-type=module", "-e", WITH_CLEANUP.replace("setInterval(() => {}, 1000);", "")],
    });
    expect(await child.closed).toEqual({ code: 0, signal: null });
    expect(child.stdout).toBe("ready\ncleaned up\n");
  });

  /** Forks `workerCode` (as vitest's pool forks a worker, with an IPC channel) from a parent, then SIGKILLs the parent. */
  async function orphan(workerCode: string): Promise<number> {
    await using directory = await makeTemporaryDirectory();
    const worker = join(directory.path, "worker.mjs");
    await writeFile(
      worker,
      `// As in a vitest worker, where process.exit() throws while a test file runs.
       process.exit = (code) => { throw new Error("process.exit unexpectedly called with " + code); };
       ${workerCode}
       process.send("ready");
       setInterval(() => {}, 1000);`,
    );
    const parent = `
      import { fork } from "node:child_process";
      const worker = fork(${JSON.stringify(worker)}, [], { execArgv: [] });
      worker.once("message", () => console.log("worker " + worker.pid));
      setInterval(() => {}, 1000);
    `;
    await using child = startChild({ args: ["--input-type=module", "-e", parent] });
    const [, pid] = await child.waitForMatch(/worker (\d+)/, "the worker's pid");
    await child.kill();
    return Number(pid);
  }

  it("ends a forked worker whose parent is gone, running its cleanups", async () => {
    await using directory = await makeTemporaryDirectory();
    const cleaned = join(directory.path, "cleaned");
    const pid = await orphan(`
      import { writeFileSync } from "node:fs";
      const { onRunEnd } = await import(${JSON.stringify(RUN_END)});
      onRunEnd(() => writeFileSync(${JSON.stringify(cleaned)}, "yes"));
    `);
    await eventually(() => !isRunning(pid), { what: "the orphaned worker to end" });
    expect(existsSync(cleaned)).toBe(true);
  });

  it("with endWithParent (the vitest setup file), ends an orphaned worker that registered nothing", async () => {
    const pid = await orphan(`
      const { endWithParent } = await import(${JSON.stringify(RUN_END)});
      endWithParent();
    `);
    await eventually(() => !isRunning(pid), { what: "the orphaned worker to end" });
  });
});
