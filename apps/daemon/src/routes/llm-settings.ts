import {
  type LlmSettingsResponse,
  LlmTestRequest,
  type LlmTestResponse,
  PutLlmSettingsRequest,
} from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { isRelayedRequest, requestSender } from "../http/relayed.js";
import { currentBriefLanguage } from "../runtime/briefs/brief-language.js";
import {
  configuredChannel,
  publicChannel,
  savedLlmSection,
  testedChannel,
} from "../runtime/model/llm-settings.js";
import { relayedLlmTestAnswer, runLlmTest } from "../runtime/model/llm-test.js";
import { refuseForbiddenAddress } from "../runtime/model/model-test/forbidden-address.js";
import { testerOf } from "../runtime/model/model-test/tests-per-minute.js";

/** `GET/PUT/DELETE /llm/settings` (spec: Language model and report language) and `POST /llm/test`. */
export function llmSettingsRoutes(app: AppContext): Hono {
  return new Hono()
    .get("/llm/settings", (context) => {
      return context.json({
        channel: publicChannel(configuredChannel(app.config.raw)),
      } satisfies LlmSettingsResponse);
    })
    .put("/llm/settings", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const request = parseBody(PutLlmSettingsRequest, body, "invalid_llm_settings");
      // Saving from the app replaces the whole llm section.
      const llm = savedLlmSection(app.config.raw, request);
      await refuseForbiddenAddress(llm.primary.baseUrl);
      await app.config.update((raw) => ({ ...raw, llm }));
      app.log(`language model set to ${llm.primary.model} (${new URL(llm.primary.baseUrl).host})`);
      return context.json({ channel: publicChannel(llm.primary) } satisfies LlmSettingsResponse);
    })
    .delete("/llm/settings", async (context) => {
      await app.config.update(({ llm: _removed, ...rest }) => rest);
      app.log("language model removed: briefs are marked failed until one is set");
      return context.json({ channel: null } satisfies LlmSettingsResponse);
    })
    .all("/llm/settings", methodNotAllowed(["GET", "PUT", "DELETE"]))
    .post("/llm/test", async (context) => {
      // No body at all (a relayed request without one) tests the saved channel, as `{}` does.
      const hasNoBody = context.req.raw.body === null && context.req.header("content-type") === undefined;
      const body = hasNoBody ? {} : await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const request = parseBody(LlmTestRequest, body, "invalid_llm_settings");
      // Every test counts, whatever it answers: a device cannot map the network's ports a few a second.
      app.modelTests.take(testerOf(requestSender(context)));
      const channel = testedChannel(app.config.raw, request);
      await refuseForbiddenAddress(channel.baseUrl);
      const language = currentBriefLanguage(app.config.raw, app.systemLanguage).language;
      const result = await runLlmTest(channel, app.modelSlots, language, app.modelTestProgress);
      const host = new URL(channel.baseUrl).host;
      app.log(
        result.ok
          ? `language model test: ${channel.model} (${host}) answered in ${result.latencyMs} ms${result.timing?.advice ? `; ${result.timing.advice}` : ""}`
          : `language model test: ${channel.model} (${host}) failed: ${result.error.message}`,
      );
      // A device through the relay learns whether it worked and how long it took, not what the address said.
      const answer = isRelayedRequest(context) ? relayedLlmTestAnswer(result, channel) : result;
      return context.json(answer satisfies LlmTestResponse);
    })
    .all("/llm/test", methodNotAllowed(["POST"]));
}
