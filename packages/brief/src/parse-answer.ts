import type { z } from "zod";

/** How many schema issues an error names. */
const SCHEMA_ISSUES_SHOWN = 3;

// A markdown fence around the whole answer: ```json ... ``` (the language tag is optional).
const FENCE_PATTERN = /^\s*```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```\s*$/;

/** The answer without a markdown fence around it. */
export function stripMarkdownFence(content: string): string {
  const match = FENCE_PATTERN.exec(content);
  return match ? (match[1] ?? "") : content;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const described = issues
    .slice(0, SCHEMA_ISSUES_SHOWN)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`);
  const more = issues.length - SCHEMA_ISSUES_SHOWN;
  return more > 0 ? `${described.join("; ")}; and ${more} more` : described.join("; ");
}

/**
 * The model's answer as the schema's value: a fence around it stripped, then JSON-parsed and validated.
 * A fence is stripped in both structured-output modes: a strict server never sends one, and a lenient one
 * that does has still answered.
 */
export function parseStructuredAnswer<T>(
  content: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(stripMarkdownFence(content));
  } catch (error) {
    return {
      ok: false,
      error: `The language model's answer is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    return {
      ok: false,
      error: `The language model's answer does not match the brief schema: ${describeIssues(result.error.issues)}`,
    };
  }
  return { ok: true, value: result.data };
}
