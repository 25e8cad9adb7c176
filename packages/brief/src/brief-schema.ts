import { BriefDraft } from "@ringback/protocol";
import { z } from "zod";

/**
 * What the rewrite call returns: a whole draft again, plus the heading (written by the model in the brief
 * language) under which facts still missing are read aloud.
 */
export const BriefRewriteDraft = BriefDraft.extend({
  supplementaryHeading: z
    .string()
    .describe(
      "A short heading in the brief language, read aloud before facts that are still not in the spoken paragraph.",
    ),
});
export type BriefRewriteDraft = z.infer<typeof BriefRewriteDraft>;

/** A JSON Schema object as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/**
 * zod 4's JSON Schema of a structured-output schema. Every property is required and every object has
 * `additionalProperties: false`, as OpenAI's strict mode demands; the `$schema` marker is dropped because
 * some OpenAI-compatible servers refuse unknown keywords.
 */
function structuredOutputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _marker, ...jsonSchema } = z.toJSONSchema(schema, { io: "output" });
  return jsonSchema;
}

let briefSchemaCache: JsonSchema | undefined;
let rewriteSchemaCache: JsonSchema | undefined;

/** The cached schemas, for the calls: building one walks the whole zod schema. */
export function cachedBriefJsonSchema(): JsonSchema {
  briefSchemaCache ??= structuredOutputJsonSchema(BriefDraft);
  return briefSchemaCache;
}

export function cachedBriefRewriteJsonSchema(): JsonSchema {
  rewriteSchemaCache ??= structuredOutputJsonSchema(BriefRewriteDraft);
  return rewriteSchemaCache;
}

/** The JSON Schema of `BriefDraft`: the structured output of a brief generation call. */
export function briefJsonSchema(): JsonSchema {
  return structuredClone(cachedBriefJsonSchema());
}

/** The JSON Schema of the rewrite call's output (`BriefDraft` plus `supplementaryHeading`). */
export function briefRewriteJsonSchema(): JsonSchema {
  return structuredClone(cachedBriefRewriteJsonSchema());
}
