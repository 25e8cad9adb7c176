/**
 * The soak: real relay and daemon processes under mixed traffic for RINGBACK_SOAK_MINUTES (30 by default) — agent
 * turns through the real hook, two devices answering, rejecting, acknowledging, reporting deliveries and replying,
 * dispatches to the tracker simulator, and every stream reconnecting each minute — with the relay's and the daemon's
 * RSS, V8's young generation, live heap after a full GC, open file descriptors and event-loop delay sampled every
 * 10 s, printed as a table, and checked against a stated bound: from the sample at one sixth of the run (5 minutes
 * of 30) to the end, RSS less the young generation grows by at most 20 % (or 16 MiB), the live heap by at most 20 %
 * (or 8 MiB) and open descriptors by at most 10. The young generation is taken out because V8 grows it, up to its
 * own limit, whenever allocation runs fast (a run at ten times the turn rate took the daemon's from 16 to 64 MiB and
 * its RSS from 141 to 194 MiB, while its live heap stayed at 18-20 MiB): RSS alone would call that a leak.
 * RINGBACK_SOAK_TURN_MS (2000) sets the turn rate.
 */
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { CallStream, newReplyId, sealReply } from "@ringback/client";
import { parseKey } from "@ringback/e2e-crypto";
import { DeviceCredentials } from "@ringback/protocol";
import { BenchReport } from "../../scripts/bench-report.mjs";
import { callDaemon } from "../harness/daemon-local-api.ts";
import { makeFakeAgentCli } from "../harness/fake-agent-cli.ts";
import { startSystem } from "../harness/system.ts";
import { putTrackerSettings, startTrackerSimulator } from "../harness/tracker-simulator.ts";

const SAMPLE_EVERY_MS = 10_000;
const TURN_EVERY_MS = Number(process.env.RINGBACK_SOAK_TURN_MS ?? 2_000);
const DISPATCH_EVERY_MS = 30_000;
const RECONNECT_EVERY_MS = 60_000;
const RSS_GROWTH_MAX = 0.2;
const RSS_GROWTH_SLACK_MIB = 16;
const HEAP_GROWTH_MAX = 0.2;
const HEAP_GROWTH_SLACK_MIB = 8;
const FD_GROWTH_MAX = 10;

interface Sample {
  readonly at: string;
  readonly relayRssMiB: number;
  readonly relayYoungMiB: number;
  readonly relayHeapMiB: number;
  readonly relayFds: number;
  readonly relayLoopP99Ms: string;
  readonly daemonRssMiB: number;
  readonly daemonYoungMiB: number;
  readonly daemonHeapMiB: number;
  readonly daemonFds: number;
  readonly daemonLoopP99Ms: string;
  readonly turns: number;
  readonly calls: number;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function openFds(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

/** A field of the probe's latest line (`p99`, `heap`, `young`), or "-" before its first. */
function latestProbe(stderr: string, field: "p99" | "heap" | "young"): string {
  const lines = stderr.match(/ringback-loop-delay [^\n]*/g);
  return lines?.at(-1)?.match(new RegExp(`${field}=(\\S+)`))?.[1] ?? "-";
}

/** One process's figures for a sample: RSS, V8's young generation and live heap (MiB), descriptors, loop p99. */
async function sampleProcess(pid: number, stderr: string) {
  return {
    rss: Number((await rssMiB(pid)).toFixed(1)),
    young: Number(latestProbe(stderr, "young")) || 0,
    heap: Number(latestProbe(stderr, "heap")) || 0,
    fds: await openFds(pid),
    loopP99: latestProbe(stderr, "p99"),
  };
}

/** Whether `to` is within `fraction` (or `slackMiB`, whichever is larger) of `from`. */
function grewWithin(from: number, to: number, fraction: number, slackMiB: number): boolean {
  return to <= Math.max(from * (1 + fraction), from + slackMiB);
}

export async function runSoak(minutes: number): Promise<boolean> {
  const probe = fileURLToPath(new URL("./loop-delay-probe.mjs", import.meta.url));
  const probeEnv = { NODE_OPTIONS: `--expose-gc --import=${probe}` };
  const tracker = await startTrackerSimulator();
  const agentDir = fileURLToPath(new URL("../test-artifacts/soak-agent/", import.meta.url));
  const agent = await makeFakeAgentCli(agentDir);
  const system = await startSystem({
    trackerUrl: tracker.url,
    daemonEnv: { ...probeEnv, PATH: agent.pathWith() },
    relay: { env: probeEnv },
  });
  const streams: CallStream[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  let turns = 0;
  let calls = 0;
  let failures = 0;
  try {
    await putTrackerSettings(system.daemon, {
      token: tracker.seed.user.token,
      workspaceIds: [tracker.seed.workspace.id],
    });
    const pairing = await system.daemon.pair();
    const key = parseKey(pairing.key);
    const redeem = async (name: string) => {
      const code = name === "phone" ? pairing.code : (await system.daemon.pair()).code;
      const response = await fetch(`${system.relay.url}/v1/pairing-codes/redeem`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, deviceName: name, deviceKind: "phone" }),
      });
      return DeviceCredentials.parse(await response.json());
    };
    const devices = [await redeem("phone"), await redeem("tablet")];
    const relayPost = (token: string, path: string, body: unknown) =>
      fetch(`${system.relay.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(
        (response) => response.arrayBuffer(),
        () => {
          failures++;
        },
      );

    // The phone answers, rejects or acknowledges each call and sometimes replies; the tablet reports it shown.
    const openStream = (device: DeviceCredentials, index: number, lastEventId: string | null) => {
      const stream = new CallStream({
        serverUrl: system.relay.url,
        deviceToken: device.deviceToken,
        lastEventId,
        handlers: {
          onCall: async (event) => {
            if (event.status !== "pending") return;
            if (index === 1) {
              await relayPost(device.deviceToken, `/v1/calls/${event.eventId}/deliveries`, {
                outcome: "shown",
              });
              return;
            }
            calls++;
            const status = ["answered", "answered", "rejected", "acknowledged"][calls % 4];
            await relayPost(device.deviceToken, `/v1/calls/${event.eventId}/status`, { status });
            if (status === "answered" && calls % 3 === 0) {
              const request = await sealReply(key, {
                computerId: event.fromDeviceId,
                eventId: event.eventId,
                replyId: newReplyId(),
                text: `Reply ${calls}: go on.`,
              });
              await relayPost(device.deviceToken, `/v1/calls/${event.eventId}/replies`, request);
            }
          },
          onCallStatus: () => undefined,
          onDeviceRemoved: () => {
            failures++;
          },
        },
      });
      stream.start();
      streams[index] = stream;
    };
    for (const [index, device] of devices.entries()) openStream(device, index, null);

    timers.push(
      setInterval(() => {
        turns++;
        system.agentFinishes(`Turn ${turns}: the soak goes on; all tests pass.`).catch(() => {
          failures++;
        });
      }, TURN_EVERY_MS),
      setInterval(() => {
        const online =
          tracker.seed.agents.find((candidate) => candidate.name === "Claude") ?? tracker.seed.agents[0];
        callDaemon(system.daemon, "POST", "/tracker/dispatches", {
          projectId: tracker.seed.project.id,
          agentId: online?.id,
          prompt: `Soak dispatch ${turns}`,
        }).catch(() => {
          failures++;
        });
      }, DISPATCH_EVERY_MS),
      setInterval(() => {
        devices.forEach((device, index) => {
          const previous = streams[index];
          previous?.close();
          openStream(device, index, previous?.lastEventId ?? null);
        });
      }, RECONNECT_EVERY_MS),
    );

    const samples: Sample[] = [];
    const endAt = Date.now() + minutes * 60_000;
    while (Date.now() < endAt) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
      const relay = await sampleProcess(system.relay.pid, system.relay.stderr());
      const daemon = await sampleProcess(system.daemon.pid, system.daemon.stderr());
      samples.push({
        at: `${((Date.now() - (endAt - minutes * 60_000)) / 60_000).toFixed(1)} min`,
        relayRssMiB: relay.rss,
        relayYoungMiB: relay.young,
        relayHeapMiB: relay.heap,
        relayFds: relay.fds,
        relayLoopP99Ms: relay.loopP99,
        daemonRssMiB: daemon.rss,
        daemonYoungMiB: daemon.young,
        daemonHeapMiB: daemon.heap,
        daemonFds: daemon.fds,
        daemonLoopP99Ms: daemon.loopP99,
        turns,
        calls,
      });
    }
    console.log(`soak: ${minutes} min of mixed traffic (RINGBACK_SOAK_MINUTES), a sample every 10 s`);
    console.table(samples);
    const mark = samples[Math.floor(samples.length / 6)];
    const last = samples.at(-1);
    if (!mark || !last) return false;
    // RSS less the young generation: V8 grows that (up to its own limit) when allocation runs fast, keeping nothing.
    const rssBeyondYoung = (sample: Sample, side: "relay" | "daemon") =>
      Number((sample[`${side}RssMiB`] - sample[`${side}YoungMiB`]).toFixed(1));
    const checks: (readonly [string, boolean])[] = (["relay", "daemon"] as const).flatMap((side) => {
      const [rssFrom, rssTo] = [rssBeyondYoung(mark, side), rssBeyondYoung(last, side)];
      const [heapFrom, heapTo] = [mark[`${side}HeapMiB`], last[`${side}HeapMiB`]];
      const [fdsFrom, fdsTo] = [mark[`${side}Fds`], last[`${side}Fds`]];
      return [
        [
          `${side} RSS less the young generation ${rssFrom} -> ${rssTo} MiB`,
          grewWithin(rssFrom, rssTo, RSS_GROWTH_MAX, RSS_GROWTH_SLACK_MIB),
        ],
        [
          `${side} live heap after a full GC ${heapFrom} -> ${heapTo} MiB`,
          grewWithin(heapFrom, heapTo, HEAP_GROWTH_MAX, HEAP_GROWTH_SLACK_MIB),
        ],
        [`${side} open descriptors ${fdsFrom} -> ${fdsTo}`, fdsTo <= fdsFrom + FD_GROWTH_MAX],
      ] as const;
    });
    checks.push([
      `both processes up, ${failures} failed requests`,
      !system.relay.hasExited() && !system.daemon.hasExited(),
    ]);
    // The section keeps the verdict; the samples above are printed only.
    const report = new BenchReport("@ringback/e2e soak", "Whole system: soak");
    report.line(`${minutes} min of mixed traffic (RINGBACK_SOAK_MINUTES), a sample every 10 s:`);
    report.line();
    report.table(
      ["check", "result"],
      checks.map(([what, isOk]) => [what, isOk ? "PASS" : "FAIL"]),
    );
    report.line();
    report.line(
      `bound: from ${mark.at} to the end, RSS less the young generation grows <= ${RSS_GROWTH_MAX * 100} % (or ` +
        `${RSS_GROWTH_SLACK_MIB} MiB), the live heap <= ${HEAP_GROWTH_MAX * 100} % (or ${HEAP_GROWTH_SLACK_MIB} MiB), ` +
        `open descriptors <= +${FD_GROWTH_MAX}; ${turns} turns, ${calls} calls answered`,
    );
    await report.save();
    return checks.every(([, isOk]) => isOk);
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const stream of streams) stream?.close();
    await Promise.resolve(system[Symbol.asyncDispose]()).catch(() => undefined);
    await tracker.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const minutes = Number(process.env.RINGBACK_SOAK_MINUTES ?? 30);
  process.exitCode = (await runSoak(minutes)) ? 0 : 1;
}
