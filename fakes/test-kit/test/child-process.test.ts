import { describe, expect, it } from "vitest";
import { eventually, isRunning, runToEnd, startChild } from "../src/index.js";

describe("runToEnd", () => {
  it("gives the child its input and resolves with its exit and everything it printed", async () => {
    const result = await runToEnd({
      args: [
        "-e",
        "process.stdin.setEncoding('utf8').on('data', (text) => { console.log(text.toUpperCase()); console.error('done'); process.exitCode = 3; })",
      ],
      input: "hello",
    });
    expect(result).toEqual({ code: 3, signal: null, stdout: "HELLO\n", stderr: "done\n" });
  });

  it("lets an input function pace its writes on what the child printed, and fails the run when it fails", async () => {
    const echo = "process.stdin.setEncoding('utf8').on('data', (text) => console.log('read ' + text))";
    const paced = await runToEnd({
      args: ["-e", echo],
      input: async (stdin, child) => {
        stdin.write("a");
        await child.waitFor(() => child.stdout.includes("read a"), "the first piece read");
        stdin.end("b");
      },
    });
    expect(paced.stdout).toBe("read a\nread b\n");
    await expect(
      runToEnd({
        args: ["-e", echo],
        input: async () => {
          throw new Error("the writer broke");
        },
      }),
    ).rejects.toThrow("the writer broke");
  });

  it("kills the child's whole group past its time limit and fails with what it printed", async () => {
    const running = runToEnd({
      args: [
        "-e",
        `const { spawn } = require("node:child_process");
         const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
         console.log("grandchild " + grandchild.pid);
         setInterval(() => {}, 1000);`,
      ],
      isGroupLeader: true,
      timeoutMs: 500,
    });
    const message = await running.then(
      (result) => `it ended on its own: ${JSON.stringify(result)}`,
      (error: Error) => error.message,
    );
    expect(message).toContain("did not end within 500 ms");
    const grandchild = Number(message.match(/grandchild (\d+)/)?.[1]);
    await eventually(() => !isRunning(grandchild), { what: "the grandchild to be gone" });
  });

  it("fails when the program does not exist", async () => {
    await expect(runToEnd({ command: "/nonexistent/program", args: [] })).rejects.toThrow("could not start");
  });
});

describe("startChild", () => {
  it("waits for a line and resolves with its match; disposing kills the child", async () => {
    let pid = 0;
    {
      await using child = startChild({
        args: [
          "-e",
          "setTimeout(() => console.log('listening on http://127.0.0.1:4321'), 50); setInterval(() => {}, 1000)",
        ],
        name: "the server",
      });
      pid = child.pid;
      const ready = await child.waitForMatch(/listening on (http:\/\/\S+)/, "its ready line");
      expect(ready[1]).toBe("http://127.0.0.1:4321");
      expect(child.hasExited).toBe(false);
    }
    expect(isRunning(pid)).toBe(false);
  });

  it("fails a wait at once when the child ends without it, with its stderr", async () => {
    await using child = startChild({
      args: ["-e", "console.error('bad option'); process.exit(2)"],
      name: "the cli",
    });
    await expect(child.waitForMatch(/never/, "the ready line")).rejects.toThrow(
      "the cli exited (2) before the ready line:\nbad option",
    );
    expect(child.exit).toEqual({ code: 2, signal: null });
  });

  it("fails a wait that runs out of checks with everything the child printed so far", async () => {
    await using child = startChild({
      args: ["-e", "console.log('still starting'); setInterval(() => {}, 1000)"],
      name: "the server",
    });
    await child.waitFor(() => child.stdout.includes("still starting"), "its first line");
    await expect(child.waitFor(() => false, "the impossible", 2)).rejects.toThrow(
      "the impossible (the server) did not hold after 2 checks; its output so far:\nstill starting\n",
    );
  });

  it("kills a service that never prints its ready line", async () => {
    await using child = startChild({ args: ["-e", "setInterval(() => {}, 1000)"], name: "the service" });
    await expect(child.ready(/listening/, 2)).rejects.toThrow(
      "it was ready (the service) did not hold after 2 checks",
    );
    expect(child.exit).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("takes typed lines on an open stdin and stops on a signal", async () => {
    await using child = startChild({
      args: [
        "-e",
        "process.stdin.setEncoding('utf8').on('data', (text) => console.log('got ' + text.trim()))",
      ],
      hasOpenStdin: true,
    });
    child.type("yes");
    await child.waitFor(() => child.output.includes("got yes"), "the echo");
    expect(await child.stop("SIGTERM")).toEqual({ code: null, signal: "SIGTERM" });
  });
});
