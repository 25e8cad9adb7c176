import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Agent } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type ReceivedPush, startTestPushService, type TestSubscription } from "@ringback/test-kit";
import webpush from "web-push";
import { BenchReport } from "../../../scripts/bench-report.mjs";
import { api, createAccount, pairDevices, postEvent, request, SEALED_BYTES } from "./bench-client.ts";
import { Cleanup } from "./cleanup.ts";
import { GOAL_HEADER, type Goal, goalRows } from "./goals.ts";
import { type Latency, percentile } from "./measures.ts";
import { progressOf } from "./progress.ts";
import { startRelayProcess } from "./relay-process.ts";

/*
 * Report -> push received, as a deployment does it: the built relay in its own process posts each event's Web Push
 * (web-push: RFC 8291 aes128gcm + RFC 8292 VAPID) to the project's test push service over loopback HTTPS; a sample
 * is the time from the daemon's POST to the push service having received and decrypted that device's push. The
 * baseline, taking turns with the relay in the same run: web-push's own sendNotification of the same payload from
 * this process to the same service, from the call to received and decrypted.
 */

/** This bench takes about 15 s on a quiet 2-core machine; past this it stops what it started and fails. */
const BENCH_BUDGET_MS = Number(process.env.RINGBACK_BENCH_BUDGET_MS ?? 60_000);
const EVENTS = { one: 100, hundred: 10 } as const;
const ONE_DEVICE_GOAL_MS = 5;
/** How many pushes of one account the relay sends at once (`PUSH_SENDS_PER_ACCOUNT_MAX`): the baseline's too. */
const PUSH_SENDS_PER_ACCOUNT = 4;
/** The relay's push TTL is the call's remaining life; the baseline's is as long. */
const BASELINE_TTL_SECONDS = 600;

const cleanup = new Cleanup();
const progress = progressOf("relay push bench");
const ms = (value: number) => `${value.toFixed(2)} ms`;

function latencyOf(samples: number[]): Latency {
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

interface Figures {
  readonly relay: Latency;
  readonly baseline: Latency;
}

async function run(): Promise<Figures[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "ringback-relay-push-bench-"));
  cleanup.add(() => rm(dataDir, { recursive: true, force: true }));
  const pushService = await startTestPushService();
  cleanup.add(() => pushService.close());
  // The relay process trusts the push service's self-signed certificate, as it would a public CA's.
  process.env.NODE_EXTRA_CA_CERTS = pushService.certificatePath;
  const starting = startRelayProcess(dataDir, ["--push-trusted-origins", pushService.origin]);
  cleanup.addStarting(starting, (relay) => relay.stop());
  const relay = await starting;
  delete process.env.NODE_EXTRA_CA_CERTS;
  progress(`relay started (pid ${relay.pid})`);

  const vapidDetails = { subject: "mailto:bench@ringback.invalid", ...webpush.generateVAPIDKeys() };
  const { publicKey } = (await request(relay.url, "GET", "/v1/push/public-key", null)) as {
    publicKey: string;
  };
  const { computer, phone } = await createAccount(relay.url);
  const relayDevices = new Set<string>();
  const baselineDevices: TestSubscription[] = [];
  const subscribeDevice = async (deviceToken: string) => {
    const subscription = pushService.subscribe(publicKey);
    await request(relay.url, "PUT", "/v1/push/subscription", deviceToken, subscription);
    relayDevices.add(subscription.id);
    baselineDevices.push(pushService.subscribe());
  };

  /** The one listener of the push service: each measure sets it before it sends. */
  let onPush = (_push: ReceivedPush) => {};
  pushService.onPush = (push) => onPush(push);
  /** Resolves once `count` pushes `counted` has taken arrived; rejects on a push the service refused. */
  const pushes = (count: number, counted: (push: ReceivedPush) => boolean) =>
    new Promise<void>((resolve, reject) => {
      let remaining = count;
      onPush = (push) => {
        if (push.status >= 300)
          reject(new Error(`the push service refused a push: ${push.status} ${push.problem}`));
        else if (counted(push) && --remaining === 0) resolve();
      };
    });

  /** One event through the relay: each device's ringing push is a sample; returns the payload it carried. */
  const relayEvent = async (samples: number[]): Promise<string> => {
    let payload = "";
    let postedAt = 0;
    // Ringing pushes are urgent; the call-settled ones that follow the acknowledgement are not.
    const delivered = pushes(relayDevices.size, (push) => {
      if (!relayDevices.has(push.subscriptionId) || push.urgency !== "high") return false;
      samples.push(push.receivedAt - postedAt);
      payload = push.payload ?? "";
      return true;
    });
    postedAt = performance.now();
    const { eventId, done } = postEvent(relay.url, computer.deviceToken, SEALED_BYTES);
    await Promise.all([done, delivered]);
    // Acknowledged, so it is not pushed again while the next ones are measured; the devices' pushes saying so are
    // awaited, so they do not compete with the next event's.
    const settled = pushes(
      relayDevices.size,
      (push) => relayDevices.has(push.subscriptionId) && push.urgency === "normal",
    );
    await api(relay.url, `/v1/calls/${eventId}/status`, computer.deviceToken, { status: "acknowledged" });
    await settled;
    return payload;
  };

  // Kept-alive sockets are let go before the push service's 5 s keep-alive ends them (a send on one it is closing
  // fails); the relay's global agent does the same.
  const agent = new Agent({
    ca: await readFile(pushService.certificatePath),
    keepAlive: true,
    timeout: 4000,
  });
  cleanup.add(async () => agent.destroy());
  const options = { vapidDetails, TTL: BASELINE_TTL_SECONDS, urgency: "high", agent } as const;

  /** The same payload sent to as many devices by web-push itself, as many at once as the relay sends. */
  const baselineSend = async (payload: string, samples: number[]) => {
    const ids = new Set(baselineDevices.map((device) => device.id));
    let sentAt = 0;
    const delivered = pushes(ids.size, (push) => {
      if (!ids.has(push.subscriptionId)) return false;
      samples.push(push.receivedAt - sentAt);
      return true;
    });
    sentAt = performance.now();
    const queue = [...baselineDevices];
    const sender = async () => {
      for (let device = queue.shift(); device; device = queue.shift()) {
        await webpush.sendNotification(device, payload, options);
      }
    };
    await Promise.all([...Array.from({ length: PUSH_SENDS_PER_ACCOUNT }, sender), delivered]);
  };

  const measure = async (events: number): Promise<Figures> => {
    const relaySamples: number[] = [];
    const baselineSamples: number[] = [];
    for (let index = 0; index < events; index++) {
      await baselineSend(await relayEvent(relaySamples), baselineSamples);
    }
    return { relay: latencyOf(relaySamples), baseline: latencyOf(baselineSamples) };
  };

  await subscribeDevice(phone.deviceToken);
  const one = await measure(EVENTS.one);
  progress(`1 device: ${EVENTS.one} events measured`);
  for (const device of await pairDevices(relay.url, computer, 99)) await subscribeDevice(device.deviceToken);
  progress("100 devices paired and subscribed");
  const hundred = await measure(EVENTS.hundred);
  progress(`100 devices: ${EVENTS.hundred} events measured`);
  return [one, hundred];
}

function goals([one, hundred]: Figures[]): Goal[] {
  const latency = ({ p50, p99, samples }: Latency) => `p50 ${ms(p50)}, p99 ${ms(p99)} (${samples} pushes)`;
  const added = ({ relay, baseline }: Figures) => `+${ms(relay.p50 - baseline.p50)} p50`;
  const row = (devices: string, figures: Figures | undefined, goalMs: number | null): Goal => {
    if (!figures) throw new Error("The push bench measures 1 and 100 devices.");
    return {
      figure: `report -> push received and decrypted, ${devices}`,
      relay: latency(figures.relay),
      baseline: `web-push sendNotification -> received and decrypted: ${latency(figures.baseline)}`,
      comparison: added(figures),
      goal: goalMs === null ? null : `<= +${goalMs} ms p50`,
      isMet: goalMs !== null && figures.relay.p50 - figures.baseline.p50 <= goalMs,
    };
  };
  return [row("1 device", one, ONE_DEVICE_GOAL_MS), row("100 devices of one account", hundred, null)];
}

async function report(figures: Figures[]): Promise<void> {
  const report = new BenchReport("@ringback/relay push", "@ringback/relay: report to Web Push received");
  report.line(
    `\nringback relay push bench: the relay in its own process pushes to the test push service over loopback HTTPS ` +
      `(it checks VAPID and decrypts every push); the baseline is web-push's own send of the same payload to the ` +
      `same service, taking turns with the relay; ${EVENTS.one} events to 1 device, ${EVENTS.hundred} to 100; ` +
      `sealed ${SEALED_BYTES} B; Node ${process.version}\n`,
  );
  report.table(GOAL_HEADER, goalRows(goals(figures)));
  await report.save();
}

const watchdog = setTimeout(() => {
  console.error(`relay push bench: over its ${BENCH_BUDGET_MS / 1000} s budget, stopping.`);
  void cleanup.run().finally(() => process.exit(1));
}, BENCH_BUDGET_MS);
watchdog.unref();

const started = performance.now();
run()
  .then(report, (error: unknown) => {
    console.error("relay push bench failed:", error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup.run();
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  });
