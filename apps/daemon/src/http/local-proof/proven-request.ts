import {
  LOCAL_ANSWER_PROOF_HEADER,
  LOCAL_PROOF_VERSION,
  REPORT_BODY_MAX_BYTES,
  RingbackError,
} from "@ringback/protocol";
import type { Context, Next } from "hono";
import type { Logger } from "../../runtime/logger.js";
import { readAtMost } from "../json-body.js";
import { answerProof } from "./proof-message.js";
import { checkRequestProof } from "./request-proof-check.js";
import { SeenNonces } from "./seen-nonces.js";

/** The largest body of a signed request: the hook's, a report or a permission request. */
const PROVEN_BODY_MAX_BYTES = REPORT_BODY_MAX_BYTES;

export interface ProvenRequestOptions {
  localKey: string;
  port(): number;
  now(): number;
  log: Logger;
}

/**
 * Runs a request signed with the local key (the hook's form, `Ringback-Request-Proof`) and signs its answer
 * (`Ringback-Answer-Proof`), so the hook believes nothing that did not come from a holder of the key. A request whose
 * proof fails gets 401 and no signed answer.
 */
export function provenRequestRunner(options: ProvenRequestOptions) {
  const seenNonces = new SeenNonces();
  const startedAt = options.now();
  return async (context: Context, next: Next, header: string): Promise<void> => {
    // The body is read from a copy: the route reads the request's own stream as before.
    const body = await readAtMost(context.req.raw.clone().body, PROVEN_BODY_MAX_BYTES);
    const url = new URL(context.req.url);
    const check = checkRequestProof({
      header,
      method: context.req.method,
      port: options.port(),
      path: `${url.pathname}${url.search}`,
      body,
      localKey: options.localKey,
      now: options.now(),
      startedAt,
      seenNonces,
    });
    if (!check.valid) {
      options.log(`refused a signed local request: ${check.reason}`);
      throw new RingbackError(
        "unauthorized",
        "The request's proof is wrong, outside its time window, or used before.",
      );
    }
    await next();
    const answerBody = new Uint8Array(await context.res.clone().arrayBuffer());
    const proof = answerProof(options.localKey, check.proof, context.res.status, answerBody);
    context.header(LOCAL_ANSWER_PROOF_HEADER, `${LOCAL_PROOF_VERSION}.${proof}`);
  };
}
