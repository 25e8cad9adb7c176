import { openAsBlob } from "node:fs";
import {
  type Attachment,
  RingbackError,
  UPLOAD_BODY_MAX_BYTES,
  UPLOAD_IMAGE_MAX_BYTES,
  UploadRequest,
} from "@ringback/protocol";
import type { TrackerAccess } from "./tracker-access.js";
import { receiveUpload } from "./upload-body.js";

/** The upload body's fields other than the image itself. */
const UploadFields = UploadRequest.omit({ data: true });

/**
 * `POST /tracker/uploads`: one image, forwarded to the tracker's file upload without an issue (a write,
 * sent once). The image goes from the request to a temporary file and from there to the tracker as a
 * file-backed Blob: the body is never held in memory, once or twice. The tracker receives the type its
 * first bytes show, not the declared one; a declared type that is not `image/*` is refused too.
 */
export async function uploadImage(
  access: TrackerAccess,
  body: ReadableStream<Uint8Array> | null,
): Promise<Attachment> {
  const client = access.requireClient();
  const received = await receiveUpload(body, {
    maxBodyBytes: UPLOAD_BODY_MAX_BYTES,
    maxImageBytes: UPLOAD_IMAGE_MAX_BYTES,
  });
  try {
    const parsed = UploadFields.safeParse(withoutNulls(received.fields));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RingbackError("invalid_request", `${issue?.path.join(".") || "body"}: ${issue?.message}`);
    }
    const { name, type, workspaceId } = parsed.data;
    if (!type.toLowerCase().startsWith("image/")) {
      throw new RingbackError("invalid_dispatch", `The upload is not an image (type ${type}).`);
    }
    const uploaded = await client.uploadFile({
      workspaceId: access.watchedWorkspace(workspaceId),
      filename: name,
      contentType: received.imageType,
      data: await openAsBlob(received.path, { type: received.imageType }),
    });
    return { id: uploaded.id, filename: uploaded.filename, markdownUrl: uploaded.markdownUrl };
  } finally {
    await received.remove();
  }
}

/** `"workspaceId": null` reads as absent. */
function withoutNulls(fields: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}
