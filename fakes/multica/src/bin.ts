#!/usr/bin/env node
import { parseArgs } from "node:util";
import { seedDemo } from "./demo-seed.js";
import { startFakeMultica } from "./start.js";
import { FakeMulticaState } from "./state.js";

const usage = `Usage: ringback-fake-multica [--port N] [--host ADDRESS] [--seed demo] [--token mul_...]

Starts a simulated Multica tracker (REST under /api, realtime at /ws).
  --port   port to listen on (default 0: any free port)
  --host   address to listen on (default 127.0.0.1)
  --seed   "demo": a workspace with a project, two agents and a few issues
  --token  the demo user's personal token (default: a new random one)`;

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    seed: { type: "string" },
    token: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid --port ${values.port}\n\n${usage}`);
  process.exit(2);
}
if (values.seed !== undefined && values.seed !== "demo") {
  console.error(`Unknown --seed ${values.seed}\n\n${usage}`);
  process.exit(2);
}
if (values.token !== undefined && !/^mul_[0-9a-f]{40}$/.test(values.token)) {
  console.error("--token must be mul_ followed by 40 lowercase hex characters");
  process.exit(2);
}

const state = new FakeMulticaState();
const demo = values.seed === "demo" ? seedDemo(state, { token: values.token }) : undefined;
const fake = await startFakeMultica({ port, host: values.host, state });
console.log(`fake Multica listening on ${fake.url} (realtime: ${fake.url.replace(/^http/, "ws")}/ws)`);
if (demo) {
  // A local simulator's demo token is meant to be copied into the daemon's tracker settings.
  console.log(`demo token:      ${demo.user.token}`);
  console.log(`demo workspace:  ${demo.workspace.id} (${demo.workspace.name})`);
  console.log(`demo project:    ${demo.project.id} (${demo.project.title})`);
  for (const agent of demo.agents) console.log(`demo agent:      ${agent.id} (${agent.name})`);
  console.log(`set DAEMON_TRACKER_API_URL=${fake.url} for the daemon to use it`);
}

const stop = () => {
  void fake.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
