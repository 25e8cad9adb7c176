import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { evaluateBriefs, evaluationFailed, formatEvaluation } from "@ringback/brief";
import { currentBriefLanguage } from "../../runtime/briefs/brief-language.js";
import { systemLanguage } from "../../runtime/briefs/system-language.js";
import { CONFIG_FILE, type RawConfig } from "../../runtime/files/config-file.js";
import { resolveDataDir } from "../../runtime/files/data-dir.js";
import { configuredChannel } from "../../runtime/model/llm-settings.js";
import { modelFetch } from "../../runtime/model/model-fetch/model-fetch.js";
import { StartError } from "../../runtime/start-error.js";

export const summary = "write briefs for report files with the configured model, without sending them";
export const usage = `ringback brief-eval <report files...>

Generates a brief for each file (plain text, or a JSON report) with the language model and the brief language
configured in daemon.json, sends nothing, and prints per report: critical-fact coverage, spoken/original length
ratio, model calls and time. Exits 1 when any critical fact is uncovered or a spoken part breaks the 60 % rule.`;

export async function run(args: string[]): Promise<void> {
  const files = args.filter((argument) => !argument.startsWith("-"));
  if (files.length === 0) throw new StartError(`name at least one report file\n${usage}`);
  const config = await readConfigReadOnly(join(resolveDataDir(process.env), CONFIG_FILE));
  const channel = configuredChannel(config);
  if (!channel) throw new StartError("no language model is configured on this computer (PUT /llm/settings)");
  const { language } = currentBriefLanguage(config, systemLanguage());
  const results = await evaluateBriefs({ files, channel, language, fetch: modelFetch });
  process.stdout.write(`${formatEvaluation(results)}\n`);
  if (evaluationFailed(results)) process.exitCode = 1;
}

/** brief-eval only reads daemon.json: it must not create keys or files on a computer it merely inspects. */
async function readConfigReadOnly(path: string): Promise<RawConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return {};
  }
  try {
    return JSON.parse(text) as RawConfig;
  } catch {
    throw new StartError(`${path} is not valid JSON`);
  }
}
