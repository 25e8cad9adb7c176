import {
  CommentDispatchRequest,
  type CreateDispatchRequest,
  CreateIssueDispatchRequest,
  DISPATCH_WORDS_MAX,
  DispatchIdRequest,
  type DispatchListResponse,
  type DispatchResponse,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { parseBody, readJsonBody, SETTINGS_BODY_MAX_BYTES } from "../http/json-body.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";

/**
 * A dispatch body: up to DISPATCH_WORDS_MAX characters (up to 4 bytes each in UTF-8) and the attachment
 * references of any number of images (the spec sets no limit on their number).
 */
const DISPATCH_BODY_MAX_BYTES = 1024 * 1024;

/**
 * `POST/GET /tracker/dispatches`, `POST /tracker/dispatches/lookup`, `POST /tracker/dispatches/cancel`
 * (spec: Dispatch, Dispatch record states).
 */
export function dispatchesRoutes(app: AppContext): Hono {
  const { dispatches } = app.tracker;
  return new Hono()
    .post("/tracker/dispatches", async (context) => {
      const request = parseDispatchRequest(await readJsonBody(context, DISPATCH_BODY_MAX_BYTES));
      const dispatch = await dispatches.create(request);
      return context.json({ dispatch } satisfies DispatchResponse);
    })
    .get("/tracker/dispatches", async (context) =>
      context.json({ dispatches: [...(await dispatches.list())] } satisfies DispatchListResponse),
    )
    .all("/tracker/dispatches", methodNotAllowed(["GET", "POST"]))
    .post("/tracker/dispatches/lookup", async (context) => {
      const { id } = parseBody(DispatchIdRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      return context.json({ dispatch: await dispatches.lookup(id) } satisfies DispatchResponse);
    })
    .all("/tracker/dispatches/lookup", methodNotAllowed(["POST"]))
    .post("/tracker/dispatches/cancel", async (context) => {
      const { id } = parseBody(DispatchIdRequest, await readJsonBody(context, SETTINGS_BODY_MAX_BYTES));
      return context.json({ dispatch: await dispatches.cancel(id) } satisfies DispatchResponse);
    })
    .all("/tracker/dispatches/cancel", methodNotAllowed(["POST"]));
}

/**
 * The comment form when `issueId` is present, else the create form (so that a mismatch names the field
 * of the form meant). Words over DISPATCH_WORDS_MAX are `invalid_dispatch` (spec: Errors), any other
 * mismatch `invalid_request`.
 */
function parseDispatchRequest(body: unknown): CreateDispatchRequest {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if (typeof fields.prompt === "string" && fields.prompt.length > DISPATCH_WORDS_MAX) {
    throw new RingbackError("invalid_dispatch", `The words exceed ${DISPATCH_WORDS_MAX} characters.`);
  }
  return "issueId" in fields
    ? parseBody(CommentDispatchRequest.strict(), body)
    : parseBody(CreateIssueDispatchRequest.strict(), body);
}
