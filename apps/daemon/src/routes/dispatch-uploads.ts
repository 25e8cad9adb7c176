import { RingbackError, UPLOAD_BODY_MAX_BYTES, type UploadResponse } from "@ringback/protocol";
import { Hono } from "hono";
import type { AppContext } from "../app-context.js";
import { methodNotAllowed } from "../http/method-not-allowed.js";
import { uploadImage } from "../runtime/tracker/image-upload.js";

/**
 * `POST /tracker/uploads`: one image per call, base64 in JSON, body up to UPLOAD_BODY_MAX_BYTES. The body
 * is read as a stream (see runtime/tracker/upload-body.ts), never whole, so the JSON helper of the other
 * routes is not used; its rules are: application/json only (415), the size checked on the declared length
 * and on the stream (413).
 */
export function dispatchUploadsRoutes(app: AppContext): Hono {
  return new Hono()
    .post("/tracker/uploads", async (context) => {
      const mediaType = context.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
      if (mediaType !== "application/json") throw new RingbackError("unsupported_media_type");
      const declared = Number(context.req.header("content-length"));
      if (Number.isFinite(declared) && declared > UPLOAD_BODY_MAX_BYTES) {
        throw new RingbackError("payload_too_large", `The body is over ${UPLOAD_BODY_MAX_BYTES} bytes.`);
      }
      const attachment = await uploadImage(app.tracker.access, context.req.raw.body);
      app.log(`tracker: uploaded an image for a dispatch (${attachment.id})`);
      return context.json({ attachment } satisfies UploadResponse);
    })
    .all("/tracker/uploads", methodNotAllowed(["POST"]));
}
