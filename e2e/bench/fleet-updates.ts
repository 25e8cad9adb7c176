/**
 * The fleet (issue #38): 50 agents on 5 computers, each computer's daemon a real `ringback run` logged in to one
 * account on the real relay, and a phone stand-in following the relay's event stream. For CHURN_MS every computer
 * changes one of its 10 agents every CHANGE_EVERY_MS (a turn starts through `POST /agent-activity`, as the hook posts
 * it, or ends through `POST /report`), far faster than it may send. Prints the sealed bytes of an update, the updates
 * per second each computer sent (coalesced to one per FLEET_UPDATE_MIN_INTERVAL_MS at most), and the relay's fan-out
 * time (stored -> the phone's stream). Printed, not asserted; BENCHMARKS.md is left as it is.
 *
 *   pnpm --filter @ringback/e2e exec node bench/fleet-updates.ts   (after building the relay and the daemon)
 */
import { join } from "node:path";
import { joinWithLink } from "@ringback/client";
import { openFleetState, sealedPlaintextBytes } from "@ringback/e2e-crypto";
import { FLEET_UPDATE_MIN_INTERVAL_MS, FleetState, RelayedFleetState } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { BenchReport } from "../../scripts/bench-report.mjs";
import { callDaemon } from "../harness/daemon-local-api.ts";
import { type DaemonProcess, runRingback, startDaemon } from "../harness/daemon-process.ts";
import { startRelay } from "../harness/relay-process.ts";
import { percentile } from "./percentile.ts";

const COMPUTERS = 5;
const AGENTS_PER_COMPUTER = 10;
const CHURN_MS = 12_000;
const CHANGE_EVERY_MS = 200;

interface FleetArrival {
  computerId: string;
  sealed: string;
  /** The relay's time of storing it and the phone's time of reading it, same clock (one machine). */
  storedAt: number;
  arrivedAt: number;
}

const directory = await makeTemporaryDirectory("ringback-fleet-bench-");
const relay = await startRelay({ dataDir: join(directory.path, "relay"), webRoot: null });
const homes = Array.from({ length: COMPUTERS }, (_, index) => join(directory.path, `computer-${index + 1}`));
const [firstHome = ""] = homes;
await runRingback(firstHome, ["login", "--server", relay.url, "--name", "computer-1"]);
const pairLink = async () =>
  JSON.parse((await runRingback(firstHome, ["pair", "--json"])).stdout).link as string;
// One pairing code at a time: each computer joins with its own before the next is made.
for (const [index, home] of homes.entries())
  if (index > 0) await runRingback(home, ["login", await pairLink(), "--name", `computer-${index + 1}`]);
const phone = await joinWithLink(await pairLink(), { deviceName: "phone", deviceKind: "phone" });
const daemons: DaemonProcess[] = await Promise.all(homes.map((home) => startDaemon({ home })));

const arrivals: FleetArrival[] = [];
const stream = new AbortController();
const streaming = followFleetEvents(relay.url, phone.identity.deviceToken, stream.signal, arrivals);

const startedAt = Date.now();
// The first seconds fill every computer's list; the rate is counted over the churn after them.
const churnStartsAt = startedAt + 2 * FLEET_UPDATE_MIN_INTERVAL_MS;
const churnEndsAt = churnStartsAt + CHURN_MS;
const working = new Set<string>();
let changes = 0;
let turns = 0;
await Promise.all(
  daemons.map(async (daemon, computer) => {
    while (Date.now() < churnEndsAt) {
      const agent = `${computer}-${Math.floor(Math.random() * AGENTS_PER_COMPUTER)}`;
      const session = { sessionId: `bench-session-${agent}`, cwd: `/home/ada/project-${agent}` };
      if (working.has(agent)) {
        turns += 1;
        await callDaemon(daemon, "POST", "/report", {
          source: "claude-code",
          ...session,
          turnId: `turn-${turns}`,
          text: "Done; all tests pass.",
        });
        working.delete(agent);
      } else {
        await callDaemon(daemon, "POST", "/agent-activity", {
          agent: "claude-code",
          ...session,
          activity: "turn-started",
        });
        working.add(agent);
      }
      changes += 1;
      await new Promise((resolve) => setTimeout(resolve, CHANGE_EVERY_MS));
    }
  }),
);
// The last coalesced update of each computer.
await new Promise((resolve) => setTimeout(resolve, FLEET_UPDATE_MIN_INTERVAL_MS + 500));
stream.abort();
await streaming;

const churned = arrivals.filter(
  (arrival) => arrival.storedAt >= churnStartsAt && arrival.storedAt < churnEndsAt,
);
const computerIds = [...new Set(arrivals.map((arrival) => arrival.computerId))];
// Updates per second from the time between a computer's updates during the churn (a count in a window would
// depend on where the window's edges fall).
const ratePerComputer = computerIds.map((computerId) => {
  const times = churned
    .filter((arrival) => arrival.computerId === computerId)
    .map((arrival) => arrival.storedAt);
  const span = (times.at(-1) ?? 0) - (times[0] ?? 0);
  return times.length < 2 || span === 0 ? 0 : (1000 * (times.length - 1)) / span;
});
const sealedBytes = arrivals.map((arrival) => arrival.sealed.length);
const paddedBytes = arrivals.map((arrival) => sealedPlaintextBytes(arrival.sealed));
// States the relay sends after `synced` on connect were stored before: only live ones count.
const fanOut = arrivals
  .filter((arrival) => arrival.storedAt >= startedAt)
  .map((arrival) => arrival.arrivedAt - arrival.storedAt);
const latest = new Map(arrivals.map((arrival) => [arrival.computerId, arrival]));
const agentsListed = (
  await Promise.all(
    [...latest.values()].map(
      async ({ computerId, sealed }) =>
        FleetState.parse(await openFleetState(phone.key, computerId, sealed)).agents.length,
    ),
  )
).reduce((sum, count) => sum + count, 0);

const report = new BenchReport("@ringback/e2e fleet", "Fleet update size and rate: 50 agents on 5 computers");
report.line(
  `fleet update size and rate: ${COMPUTERS * AGENTS_PER_COMPUTER} agents on ${COMPUTERS} computers (real relay and daemons), ` +
    `a change per computer every ${CHANGE_EVERY_MS} ms for ${CHURN_MS / 1000} s (${changes} changes in all)`,
);
report.line();
report.table(
  ["what", "p50", "max"],
  [
    [
      "sealed update (base64url text, bytes)",
      String(percentile(sealedBytes, 0.5)),
      String(Math.max(...sealedBytes)),
    ],
    ["its padded plaintext (bytes)", String(percentile(paddedBytes, 0.5)), String(Math.max(...paddedBytes))],
    [
      "updates per second sent, per computer",
      percentile(ratePerComputer, 0.5).toFixed(2),
      Math.max(...ratePerComputer).toFixed(2),
    ],
    [
      "relay fan-out: stored -> phone's stream (ms)",
      String(percentile(fanOut, 0.5)),
      String(Math.max(...fanOut)),
    ],
  ],
);
report.line();
report.line(
  `${arrivals.length} updates reached the phone from ${computerIds.length} computers; the latest list ${agentsListed} ` +
    `agents. Goal: at most ${(1000 / FLEET_UPDATE_MIN_INTERVAL_MS).toFixed(2)} updates per second per computer ` +
    "however fast its agents change, sizes in whole padding steps only.",
);

await Promise.all(daemons.map((daemon) => daemon.stop("SIGTERM")));
await relay.stop("SIGTERM");
await directory.remove();

/** Reads the relay's event stream as a device and keeps each `fleet` event with its arrival time. */
async function followFleetEvents(
  serverUrl: string,
  deviceToken: string,
  signal: AbortSignal,
  into: FleetArrival[],
): Promise<void> {
  const response = await fetch(`${serverUrl}/v1/stream`, {
    headers: { authorization: `Bearer ${deviceToken}`, accept: "text/event-stream" },
    signal,
  });
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n")) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const lines = frame.split("\n");
        if (!lines.includes("event: fleet")) continue;
        const data = lines
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        const state = RelayedFleetState.parse(JSON.parse(data));
        into.push({
          computerId: state.computerId,
          sealed: state.sealed,
          storedAt: Date.parse(state.receivedAt),
          arrivedAt: Date.now(),
        });
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}
