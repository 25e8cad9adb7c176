import { fileURLToPath } from "node:url";
import { eventually, makeTemporaryDirectory, startChild } from "@ringback/test-kit";
import { expect, it } from "vitest";

const PUSH_BENCH = fileURLToPath(new URL("../bench/push.bench.ts", import.meta.url));
/** Starting the push service and the built relay on a busy machine: up to a minute of 20 ms checks. */
const START_CHECKS = 3000;

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it("a bench that is killed mid-run (no cleanup of its own runs) leaves no relay process behind", async () => {
  // Its data and the push service's certificate go here: a bench killed this way cannot remove them itself.
  await using temporary = await makeTemporaryDirectory("ringback-bench-leftovers-");
  await using bench = startChild({
    args: [PUSH_BENCH],
    env: { ...process.env, TMPDIR: temporary.path },
    name: "relay push bench",
  });
  const [, pid] = await bench.waitFor(
    () => bench.stderr.match(/relay started \(pid (\d+)\)/),
    "the bench to start its relay",
    START_CHECKS,
  );
  const relayPid = Number(pid);
  expect(isRunning(relayPid)).toBe(true);
  await bench.kill();
  await eventually(() => !isRunning(relayPid), { what: "the relay to exit with its bench" });
});
