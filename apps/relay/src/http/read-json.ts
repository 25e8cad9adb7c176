import { RingbackError } from "@ringback/protocol";
import type { Context } from "hono";
import type { z } from "zod";

/**
 * The request body parsed and validated, or 400 `invalid_request`. The message names fields and rules only,
 * never the body's content (a malformed body may still carry a secret).
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  // Only the parse is guarded: a failure to read the body is not a JSON problem and keeps its own error.
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RingbackError("invalid_request", "The body is not JSON.");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "body"}: ${issue.message}`,
    );
    throw new RingbackError("invalid_request", `The body does not match: ${problems.join("; ")}.`);
  }
  return parsed.data;
}

/** A path parameter validated with a schema, or 400 `invalid_request`. */
export function readParam<T extends z.ZodType>(
  value: string | undefined,
  schema: T,
  name: string,
): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RingbackError("invalid_request", `The ${name} in the path is not valid.`);
  return parsed.data;
}
