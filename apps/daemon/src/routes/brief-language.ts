import { type BriefLanguage, PutBriefLanguageRequest } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { currentBriefLanguage, withBriefLanguage } from "../runtime/briefs/brief-language.js";

/** `GET/PUT /brief/language`: effective for the next brief. */
export function briefLanguageRoutes(app: AppContext): Hono {
  return new Hono()
    .get("/brief/language", (context) => {
      return context.json(currentBriefLanguage(app.config.raw, app.systemLanguage) satisfies BriefLanguage);
    })
    .put("/brief/language", async (context) => {
      const body = await readJsonBody(context, SETTINGS_BODY_MAX_BYTES);
      const { language } = parseBody(PutBriefLanguageRequest, body, "invalid_language");
      await app.config.update((raw) => withBriefLanguage(raw, language));
      app.log(`brief language set to ${language}`);
      return context.json({ language, source: "app" } satisfies BriefLanguage);
    })
    .all("/brief/language", methodNotAllowed(["GET", "PUT"]));
}
