import { type LlmChannelPublic, modelCallLimits } from "@ringback/protocol";

/** The model as `ringback model` shows it: address, key hint, limits and output cap, each said when it is the default. */
export function describeChannel(channel: LlmChannelPublic): string {
  const limits = modelCallLimits(channel);
  const origin = (value: number | undefined) =>
    value === undefined ? ` (the ${limits.endpoint} default)` : "";
  const defaultCap =
    limits.endpoint === "local" ? "sized to each report (the local default)" : "none (the hosted default)";
  return [
    `${channel.model} at ${channel.baseUrl} (${limits.endpoint}), key ${channel.keyHint}, ${channel.structuredOutput}`,
    `overall limit per call: ${limits.timeoutMs / 1000} s${origin(channel.timeoutMs)}`,
    `no-progress limit: ${limits.noProgressTimeoutMs / 1000} s${origin(channel.noProgressTimeoutMs)}`,
    `output cap: ${channel.maxOutputTokens === undefined ? defaultCap : `${channel.maxOutputTokens} tokens`}`,
  ].join("\n");
}
