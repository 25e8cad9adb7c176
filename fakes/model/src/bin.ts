#!/usr/bin/env node
import { parseArgs } from "node:util";
import { answers, type FakeAnswer } from "./answers.js";
import { startFakeModel } from "./fake-model.js";

const USAGE =
  "usage: ringback-fake-model [--port N] [--delay-ms N] [--api-key KEY] [--model ID]... [--answer TEXT] [--run-commands]";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    "delay-ms": { type: "string" },
    "api-key": { type: "string" },
    model: { type: "string", multiple: true },
    answer: { type: "string" },
    "run-commands": { type: "boolean" },
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

function withDelay(answer: FakeAnswer): FakeAnswer {
  return delayMs > 0 ? answers.delay(delayMs, answer) : answer;
}

/** `--answer TEXT` or the echo; with `--run-commands` agents run the `RUN: <command>` of a prompt first. */
function defaultAnswer(): FakeAnswer {
  const otherwise = values.answer === undefined ? answers.echo() : answers.text(values.answer);
  return values["run-commands"] ? answers.shellFromPrompt({ otherwise }) : otherwise;
}

const fake = await startFakeModel({
  port,
  ...(values["api-key"] === undefined ? {} : { apiKey: values["api-key"] }),
  ...(values.model === undefined ? {} : { models: values.model }),
  defaultAnswer: withDelay(defaultAnswer()),
});
console.log(`fake model listening on ${fake.url} (baseUrl for the language-model channel)`);
console.log(`  Claude Code: ANTHROPIC_BASE_URL=${fake.url.replace(/\/v1$/, "")} ANTHROPIC_API_KEY=any`);
console.log(`  Codex: [model_providers.X] base_url = "${fake.url}", wire_api = "responses"`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
