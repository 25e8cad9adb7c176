/**
 * Hook wall time: the built `ringback-hook` posting a Claude Code Stop payload to a fake daemon answering 202,
 * beside the minimal script that does the same job on public Node APIs (bench/minimal-post.mjs: reads the payload
 * from process.stdin, posts it with node:net, awaits the 202) and bare `node -e 0` (what starting Node alone costs
 * here), in rounds alternating the three so all see the same machine load. The payload is handed over through
 * stdin as the agents do it (a pipe from a Node parent, as Claude Code spawns its hooks). Each round's time over
 * `node -e 0` is taken, and the medians compared: the goal is the hook within 2 ms of the minimal script. Then the
 * peak RSS and the main thread's CPU time of each, in separate runs with a preload that reads them at exit (so the
 * preload never counts in the timed runs): CPU time hardly moves with the machine's load, wall time does, so the
 * load average is printed too. Prints a table (also its section of BENCHMARKS.md). Run with `pnpm bench` after
 * `pnpm build`.
 */
import { spawn } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchReport } from "../../../scripts/bench-report.mjs";

const RUNS = 60;
const EXIT_STATS_RUNS = 20;
const WARM_UP_RUNS = 3;
const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, "..", "dist", "ringback-hook.mjs");
const minimalScript = join(here, "minimal-post.mjs");
/** The hook's goal: its median time over bare Node within this much of the minimal script's. */
const GOAL_MS_OVER_MINIMAL = 2;
const payloadFile = join(here, "..", "test", "fixtures", "claude-code-stop.json");
const BENCH_KEY = "bench-key";

function timeProcess(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${args.join(" ")} exited ${code}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
    // `node -e 0` never reads its stdin and may have closed it by now.
    child.stdin.on("error", () => {});
    child.stdin.end(stdin);
  });
}

/** Writes the process's peak RSS (VmHWM, KiB) and its main thread's CPU time (µs) to stderr as it exits. */
const EXIT_STATS_PRELOAD = `data:text/javascript,process.on("exit",()=>{const s=process.getBuiltinModule("node:fs").readFileSync("/proc/self/status","utf8");const c=process.threadCpuUsage();process.stderr.write("peak-rss-kib="+/VmHWM:\\s+(\\d+)/.exec(s)[1]+" main-cpu-us="+(c.user+c.system))})`;

interface ExitStats {
  peakRssKib: number;
  mainCpuMs: number;
}

function exitStats(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<ExitStats> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", EXIT_STATS_PRELOAD, ...args], {
      env,
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", () => {
      const stats = /peak-rss-kib=(\d+) main-cpu-us=(\d+)/.exec(stderr);
      if (stats) resolve({ peakRssKib: Number(stats[1]), mainCpuMs: Number(stats[2]) / 1000 });
      else reject(new Error(`no exit stats from ${args.join(" ")}: ${stderr}`));
    });
    // `node -e 0` never reads its stdin and may have closed it by now.
    child.stdin.on("error", () => {});
    child.stdin.end(stdin);
  });
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

async function main(): Promise<void> {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run pnpm build first`);
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received++;
      // Proven as the daemon proves it, so the hook and the script each check a proof, as with the real daemon.
      const proof = String(request.headers["ringback-request-proof"]).split(".")[3];
      const body = '{"accepted":true}';
      const answerProof = createHmac("sha256", BENCH_KEY)
        .update(
          [
            "ringback/local-proof/v1/answer",
            proof,
            202,
            createHash("sha256").update(body).digest("hex"),
          ].join("\n"),
        )
        .digest("base64url");
      response
        .writeHead(202, { "Content-Type": "application/json", "Ringback-Answer-Proof": `v1.${answerProof}` })
        .end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const home = await mkdtemp(join(tmpdir(), "ringback-hook-bench-"));
  try {
    const { port } = server.address() as AddressInfo;
    await writeFile(join(home, "daemon.json"), JSON.stringify({ localPort: port }));
    await writeFile(join(home, "local-api.key"), `${BENCH_KEY}\n`, { mode: 0o600 });
    const payload = JSON.parse(await readFile(payloadFile, "utf8")) as Record<string, unknown>;
    const stdin = `${JSON.stringify({ ...payload, transcript_path: null })}\n`;
    const env = { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: home };
    const processes = {
      hook: { args: [bundle, "claude-code"], stdin },
      minimal: { args: [minimalScript, String(port), BENCH_KEY], stdin },
      bare: { args: ["-e", "0"], stdin: "" },
    };

    const loadBefore = loadavg()[0] as number;
    const names = ["hook", "minimal", "bare"] as const;
    const times = { hook: [] as number[], minimal: [] as number[], bare: [] as number[] };
    for (let run = 0; run < WARM_UP_RUNS + RUNS; run++) {
      // Each round starts with another of the three, so none always runs first or last.
      const order = names.map((_, index) => names[(run + index) % names.length] as (typeof names)[number]);
      const round: Partial<Record<(typeof names)[number], number>> = {};
      for (const name of order)
        round[name] = await timeProcess(processes[name].args, processes[name].stdin, env);
      if (run >= WARM_UP_RUNS) for (const name of names) times[name].push(round[name] as number);
    }
    const exits = { hook: [] as ExitStats[], minimal: [] as ExitStats[], bare: [] as ExitStats[] };
    for (let run = 0; run < EXIT_STATS_RUNS; run++) {
      for (const name of names)
        exits[name].push(await exitStats(processes[name].args, processes[name].stdin, env));
    }
    const posts = 2 * (WARM_UP_RUNS + RUNS + EXIT_STATS_RUNS);
    if (received !== posts) throw new Error(`the fake daemon got ${received} reports, not ${posts}`);
    const loadAfter = loadavg()[0] as number;

    /** Each round's time over bare Node, paired within the round. */
    const overBare = (samples: number[]) => samples.map((ms, index) => ms - (times.bare[index] as number));
    const hookOverBare = percentile(overBare(times.hook), 0.5);
    const minimalOverBare = percentile(overBare(times.minimal), 0.5);
    const difference = hookOverBare - minimalOverBare;
    const cpuMs = (name: (typeof names)[number]) =>
      percentile(
        exits[name].map((exit) => exit.mainCpuMs),
        0.5,
      );
    const cpuDifference = cpuMs("hook") - cpuMs("minimal");
    const plus = (ms: number) => `${ms >= 0 ? "+" : ""}${ms.toFixed(1)}`;
    const row = (name: string, process: (typeof names)[number], over: string) => [
      name,
      percentile(times[process], 0.5).toFixed(1),
      percentile(times[process], 0.95).toFixed(1),
      over,
      cpuMs(process).toFixed(1),
      process === "bare" ? "" : plus(cpuMs(process) - cpuMs("bare")),
      (
        percentile(
          exits[process].map((exit) => exit.peakRssKib),
          0.5,
        ) / 1024
      ).toFixed(1),
    ];

    const report = new BenchReport("@ringback/hook", "@ringback/hook: wall time of one agent turn");
    report.line(
      `ringback-hook wall time, ${RUNS} rounds alternating the processes; main thread's CPU time and peak RSS, p50 of ${EXIT_STATS_RUNS} (Node ${process.version}, ${process.platform}; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${availableParallelism()} cores)\n`,
    );
    report.table(
      ["process", "p50 ms", "p95 ms", "p50 over bare", "main-thread CPU ms", "CPU over bare", "peak RSS MiB"],
      [
        row("ringback-hook claude-code (202)", "hook", plus(hookOverBare)),
        row("minimal script: stdin, node:net, 202", "minimal", plus(minimalOverBare)),
        row("node -e 0", "bare", ""),
      ],
    );
    report.line(
      `\nhook - minimal script, p50 over bare node: ${plus(difference)} ms (goal: <= ${GOAL_MS_OVER_MINIMAL} ms): ${difference <= GOAL_MS_OVER_MINIMAL ? "met" : "NOT MET"}; main-thread CPU: ${plus(cpuDifference)} ms`,
    );
    await report.save();
  } finally {
    server.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
