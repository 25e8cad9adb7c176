import { type LlmSettingsResponse, PutLlmSettingsRequest } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { configuredChannel, publicChannel, savedLlmSection } from "../runtime/llm-settings.js";

/** `GET/PUT/DELETE /llm/settings` (spec: Language model and report language). */
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
      await app.config.update((raw) => ({ ...raw, llm }));
      app.log(`language model set to ${llm.primary.model} (${new URL(llm.primary.baseUrl).host})`);
      return context.json({ channel: publicChannel(llm.primary) } satisfies LlmSettingsResponse);
    })
    .delete("/llm/settings", async (context) => {
      await app.config.update(({ llm: _removed, ...rest }) => rest);
      app.log("language model removed: briefs are marked failed until one is set");
      return context.json({ channel: null } satisfies LlmSettingsResponse);
    })
    .all("/llm/settings", methodNotAllowed(["GET", "PUT", "DELETE"]));
}
