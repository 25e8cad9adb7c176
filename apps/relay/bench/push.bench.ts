import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startTestPushService, type TestSubscription } from "@ringback/test-kit";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { startRelayProcess } from "./relay-process.ts";

/*
 * Report -> push-received latency: the built relay in its own process posts each event's Web Push (web-push,
 * RFC 8291 aes128gcm + VAPID) to the project's test push service over loopback HTTPS; a sample is the time from
 * the daemon's POST to the push service having received and decrypted the push, per device.
 */

/** This bench must finish inside a minute; past this it stops and fails. */
const BENCH_BUDGET_MS = 60_000;
const SEALED_BYTES = 4096;
const EVENTS = { one: 100, hundred: 20 } as const;

interface Credentials {
  readonly deviceToken: string;
}

const sealed = `e2e1.0123456789abcdef.${"A".repeat(16)}.${"B".repeat(SEALED_BYTES)}`;
let eventCounter = 0;

async function api(baseUrl: string, method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, string>;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(): Promise<string[][]> {
  const dataDir = await mkdtemp(join(tmpdir(), "ringback-relay-push-bench-"));
  const pushService = await startTestPushService();
  // The relay process trusts the push service's self-signed certificate, as it would a public CA's.
  process.env.NODE_EXTRA_CA_CERTS = pushService.certificatePath;
  const relay = await startRelayProcess(dataDir, ["--push-trusted-origins", pushService.origin]);
  delete process.env.NODE_EXTRA_CA_CERTS;
  try {
    const { publicKey } = await api(relay.url, "GET", "/v1/push/public-key", null);
    const computer = (await api(relay.url, "POST", "/v1/accounts", null, {
      deviceName: "bench pc",
      deviceKind: "computer",
    })) as unknown as Credentials;
    const devices: TestSubscription[] = [];
    const addDevices = async (count: number) => {
      for (let index = 0; index < count; index++) {
        const { code } = await api(relay.url, "POST", "/v1/pairing-codes", computer.deviceToken, {});
        const phone = (await api(relay.url, "POST", "/v1/pairing-codes/redeem", null, {
          code,
          deviceName: `bench phone ${devices.length}`,
          deviceKind: "phone",
        })) as unknown as Credentials;
        const subscription = pushService.subscribe(publicKey);
        await api(relay.url, "PUT", "/v1/push/subscription", phone.deviceToken, subscription);
        devices.push(subscription);
      }
    };

    /** Posts events one at a time; each event's latency to every subscribed device is one sample. */
    const latency = async (events: number) => {
      const samples: number[] = [];
      for (let index = 0; index < events; index++) {
        const eventId = `push-bench-${++eventCounter}`;
        let remaining = devices.length;
        let postedAt = 0;
        const delivered = new Promise<void>((resolve, reject) => {
          pushService.onPush = (push) => {
            if (push.status >= 300 || push.payload === null) {
              reject(new Error(`the push service refused a push: ${push.status} ${push.problem ?? ""}`));
              return;
            }
            if ((JSON.parse(push.payload) as { eventId: string }).eventId !== eventId) return;
            samples.push(push.receivedAt - postedAt);
            if (--remaining === 0) resolve();
          };
        });
        postedAt = performance.now();
        const posted = api(relay.url, "POST", "/v1/daemon/events", computer.deviceToken, {
          eventId,
          source: "codex",
          occurredAt: new Date().toISOString(),
          sealed,
        });
        await Promise.all([posted, delivered]);
        // Acknowledged, so it is not pushed again (every 60 s) while the next ones are measured; the devices' pushes
        // saying so are awaited, so they do not compete with the next event's.
        let unsettled = devices.length;
        const settled = new Promise<void>((resolve) => {
          pushService.onPush = (push) => {
            const message = JSON.parse(push.payload ?? "{}") as { type?: string; eventId?: string };
            if (message.type === "call-settled" && message.eventId === eventId && --unsettled === 0)
              resolve();
          };
        });
        await api(relay.url, "POST", `/v1/calls/${eventId}/status`, computer.deviceToken, {
          status: "acknowledged",
        });
        await settled;
      }
      samples.sort((a, b) => a - b);
      return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
    };

    await addDevices(1);
    const one = await latency(EVENTS.one);
    await addDevices(99);
    const hundred = await latency(EVENTS.hundred);
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    return [
      ["report-to-push latency, 1 device", `p50 ${ms(one.p50)}, p99 ${ms(one.p99)}`, `${one.samples} pushes`],
      [
        "report-to-push latency, 100 devices",
        `p50 ${ms(hundred.p50)}, p99 ${ms(hundred.p99)}`,
        `${hundred.samples} pushes`,
      ],
    ];
  } finally {
    await relay.stop();
    await pushService.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function report(rows: string[][]): Promise<void> {
  const report = new BenchReport("@ringback/relay push", "@ringback/relay: report to Web Push received");
  report.line(
    `\nringback relay push bench: loopback HTTPS to the test push service (decrypts every push), relay in its own process, Node ${process.version}\n`,
  );
  report.table(["measure", "result", "sample"], rows);
  await report.save();
}

const watchdog = setTimeout(() => {
  console.error(`relay push bench: over its ${BENCH_BUDGET_MS / 1000} s budget, stopping.`);
  process.exit(1);
}, BENCH_BUDGET_MS);
watchdog.unref();

const started = performance.now();
run().then(
  async (rows) => {
    await report(rows);
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  },
  (error: unknown) => {
    console.error("relay push bench failed:", error);
    process.exit(1);
  },
);
