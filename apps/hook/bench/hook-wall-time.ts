/**
 * Hook wall time: the built `ringback-hook` posting a Claude Code Stop payload to a fake daemon answering
 * 202, against bare `node -e 0` in the same run (what starting Node alone costs here), in runs alternating the
 * two, with the hook's portable transport (`RINGBACK_HOOK_TRANSPORT=net`, what Node majors it is not tested on get)
 * as a third; then the peak RSS of each, in separate runs with a preload that reads it at exit (so the preload
 * never counts in the timed runs). Prints a table.
 * Run with `pnpm bench` after `pnpm build`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNS = 40;
const RSS_RUNS = 10;
const WARM_UP_RUNS = 3;
const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, "..", "dist", "ringback-hook.mjs");
const payloadFile = join(here, "..", "test", "fixtures", "claude-code-stop.json");

function timeProcess(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${args.join(" ")} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
    child.stdin.end(stdin);
  });
}

/** Reads the process's peak RSS (VmHWM, KiB) as it exits and writes it to stderr. */
const PEAK_RSS_PRELOAD = `data:text/javascript,process.on("exit",()=>{const s=process.getBuiltinModule("node:fs").readFileSync("/proc/self/status","utf8");process.stderr.write("peak-rss-kib="+/VmHWM:\\s+(\\d+)/.exec(s)[1])})`;

function peakRssKib(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", PEAK_RSS_PRELOAD, ...args], {
      env,
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", () => {
      const kib = /peak-rss-kib=(\d+)/.exec(stderr)?.[1];
      if (kib) resolve(Number(kib));
      else reject(new Error(`no peak RSS from ${args.join(" ")}: ${stderr}`));
    });
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
      response.writeHead(202, { "Content-Type": "application/json" }).end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const home = await mkdtemp(join(tmpdir(), "ringback-hook-bench-"));
  try {
    const { port } = server.address() as AddressInfo;
    await writeFile(join(home, "daemon.json"), JSON.stringify({ localPort: port }));
    await writeFile(join(home, "local-api.key"), "bench-key\n", { mode: 0o600 });
    const payload = JSON.parse(await readFile(payloadFile, "utf8")) as Record<string, unknown>;
    const stdin = `${JSON.stringify({ ...payload, transcript_path: null })}\n`;
    const env = { PATH: process.env.PATH, HOME: home, RINGBACK_HOME: home };
    const netEnv = { ...env, RINGBACK_HOOK_TRANSPORT: "net" };

    const hook: number[] = [];
    const hookOverNet: number[] = [];
    const bare: number[] = [];
    // Alternate them so all see the same machine load.
    for (let run = 0; run < WARM_UP_RUNS + RUNS; run++) {
      const hookMs = await timeProcess([bundle, "claude-code"], stdin, env);
      const bareMs = await timeProcess(["-e", "0"], "", env);
      const hookOverNetMs = await timeProcess([bundle, "claude-code"], stdin, netEnv);
      if (run >= WARM_UP_RUNS) {
        hook.push(hookMs);
        bare.push(bareMs);
        hookOverNet.push(hookOverNetMs);
      }
    }
    const hookRss: number[] = [];
    const bareRss: number[] = [];
    for (let run = 0; run < RSS_RUNS; run++) {
      hookRss.push(await peakRssKib([bundle, "claude-code"], stdin, env));
      bareRss.push(await peakRssKib(["-e", "0"], "", env));
    }
    if (received !== 2 * (WARM_UP_RUNS + RUNS) + RSS_RUNS)
      throw new Error(`the fake daemon got ${received} reports`);

    const row = (name: string, samples: number[]) =>
      `| ${name.padEnd(34)} | ${percentile(samples, 0.5).toFixed(1).padStart(8)} | ${percentile(samples, 0.95).toFixed(1).padStart(8)} |`;
    console.log(
      `ringback-hook wall time, ${RUNS} rounds alternating the processes (Node ${process.version}, ${process.platform}; goal: p50 <= 1.30x)\n`,
    );
    console.log(`| ${"process".padEnd(34)} | ${"p50 ms".padStart(8)} | ${"p95 ms".padStart(8)} |`);
    console.log(`| ${"-".repeat(34)} | ${"-".repeat(8)} | ${"-".repeat(8)} |`);
    const ratioRow = (name: string, samples: number[]) =>
      `| ${name.padEnd(34)} | ${(percentile(samples, 0.5) / percentile(bare, 0.5)).toFixed(2).padStart(8)} | ${(percentile(samples, 0.95) / percentile(bare, 0.95)).toFixed(2).padStart(8)} |`;
    console.log(row("ringback-hook claude-code (202)", hook));
    console.log(row("node -e 0", bare));
    console.log(ratioRow("ratio hook / bare node", hook));
    console.log(row("same over node:net (portable path)", hookOverNet));
    console.log(ratioRow("ratio over node:net / bare node", hookOverNet));
    const rssMib = (samples: number[]) => percentile(samples, 0.5) / 1024;
    console.log(
      `\npeak RSS, p50 of ${RSS_RUNS}: ringback-hook ${rssMib(hookRss).toFixed(1)} MiB, node -e 0 ${rssMib(bareRss).toFixed(1)} MiB (${(rssMib(hookRss) / rssMib(bareRss)).toFixed(2)}x)`,
    );
  } finally {
    server.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
