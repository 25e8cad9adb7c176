import { z } from "zod";
import { nullableString } from "./json-fields.js";
import { TrackerError } from "./tracker-error.js";
import type { Transport } from "./transport.js";

/** An upload may take longer than an ordinary call: up to 100 MB leave this computer. */
export const TRACKER_UPLOAD_TIMEOUT_MS = 10 * 60_000;

export interface UploadedFile {
  /** The attachment id, for `attachmentIds` of quick-create and comments. */
  id: string;
  filename: string;
  /** The durable address to put in Markdown. */
  markdownUrl: string;
  contentType: string | null;
  sizeBytes: number | null;
}

const AttachmentJson = z.object({
  id: z.string(),
  filename: z.string(),
  url: z.string().nullish(),
  markdown_url: nullableString,
  content_type: nullableString,
  size_bytes: z.number().nullish(),
});

export interface UploadInput {
  workspaceId: string;
  filename: string;
  contentType: string;
  /** The file's bytes; a Blob (for example from `fs.openAsBlob`) is sent without another copy in memory. */
  data: Uint8Array | Blob;
}

export function uploadOperations(transport: Transport) {
  return {
    /**
     * Uploads one file to the workspace without attaching it to an issue (a write: sent once). The
     * workspace header makes the tracker create an attachment whose id can be used in `attachmentIds`.
     */
    async uploadFile(input: UploadInput): Promise<UploadedFile> {
      const form = new FormData();
      form.append("file", new File([input.data], input.filename, { type: input.contentType }));
      const attachment = await transport.write(
        {
          method: "POST",
          path: "/api/upload-file",
          workspaceId: input.workspaceId,
          form,
          timeoutMs: TRACKER_UPLOAD_TIMEOUT_MS,
        },
        AttachmentJson,
      );
      // The tracker answers {id: "", url} when it stored the file but could not record the attachment.
      if (attachment.id === "") {
        throw new TrackerError(
          "tracker_unavailable",
          "the tracker stored the file but recorded no attachment",
          {
            trackerStatus: 200,
          },
        );
      }
      return {
        id: attachment.id,
        filename: attachment.filename,
        markdownUrl: attachment.markdown_url ?? attachment.url ?? "",
        contentType: attachment.content_type,
        sizeBytes: attachment.size_bytes ?? null,
      };
    },
  };
}
