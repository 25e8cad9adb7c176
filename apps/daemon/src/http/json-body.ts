import { RingbackError } from "@ringback/protocol";
import type { Context } from "hono";
import type { z } from "zod";

/** Bodies of the settings routes: a channel, a language or a key is a few hundred bytes. */
export const SETTINGS_BODY_MAX_BYTES = 64 * 1024;

/**
 * The request's JSON body: `application/json` only (415), at most `maxBytes` counted on the stream itself
 * (413; Content-Length is only an early answer), valid JSON (400 invalid_request).
 */
export async function readJsonBody(context: Context, maxBytes: number): Promise<unknown> {
  const mediaType = context.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") throw new RingbackError("unsupported_media_type");
  const declared = Number(context.req.header("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readAtMost(context.req.raw.body, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new RingbackError("invalid_request", "The body is not valid UTF-8 JSON.");
  }
}

/** Parses with `schema`; a mismatch is `code` with the first field named (never the value). */
export function parseBody<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
  code: "invalid_request" | "invalid_llm_settings" | "invalid_language" = "invalid_request",
): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join(".") : "body";
  throw new RingbackError(code, `${field}: ${issue?.message ?? "invalid"}`);
}

/** The bytes of `body`, 413 once they pass `maxBytes`. */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): RingbackError {
  return new RingbackError("payload_too_large", `The body is over ${maxBytes} bytes.`);
}
