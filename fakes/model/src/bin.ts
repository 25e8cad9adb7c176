#!/usr/bin/env node
import { parseArgs } from "node:util";
import { answers } from "./answers.js";
import { startFakeModel } from "./fake-model.js";

const USAGE = "usage: ringback-fake-model [--port N] [--delay-ms N] [--api-key KEY] [--model ID]...";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    "delay-ms": { type: "string" },
    "api-key": { type: "string" },
    model: { type: "string", multiple: true },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port);
const delayMs = values["delay-ms"] === undefined ? 0 : Number(values["delay-ms"]);
if (!Number.isInteger(port) || port < 0 || !Number.isInteger(delayMs) || delayMs < 0) {
  console.error(USAGE);
  process.exit(2);
}

const fake = await startFakeModel({
  port,
  ...(values["api-key"] === undefined ? {} : { apiKey: values["api-key"] }),
  ...(values.model === undefined ? {} : { models: values.model }),
  defaultAnswer: delayMs > 0 ? answers.delay(delayMs) : answers.echo(),
});
console.log(`fake model listening on ${fake.url} (baseUrl for the language-model channel)`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
