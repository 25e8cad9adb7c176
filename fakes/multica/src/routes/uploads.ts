import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { HttpError } from "../http-io.js";
import { isUuid, newId } from "../ids.js";
import type { UserRecord, WorkspaceRecord } from "../records.js";
import { ok, type Route, userRoute } from "../router.js";
import type { FakeMulticaState } from "../state.js";
import { secondsTimestamp } from "../timestamps.js";

/** The tracker's upload limit (`maxUploadSize = 100<<20`). */
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;
/** Room for the multipart framing around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const TOO_LARGE = "file too large or invalid multipart form";

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** upload-file is outside the workspace middleware and reads the workspace headers itself. */
function uploadWorkspace(state: FakeMulticaState, request: IncomingMessage, user: UserRecord) {
  const slug = header(request, "x-workspace-slug");
  const id = header(request, "x-workspace-id");
  if (!slug && !id) return undefined;
  const workspace = slug
    ? [...state.workspaces.values()].find((candidate) => candidate.slug === slug)
    : isUuid(id ?? "")
      ? state.workspaces.get(id ?? "")
      : undefined;
  if (!workspace || !state.isMember(workspace.id, user.id))
    throw new HttpError(403, "not a member of this workspace");
  return workspace;
}

async function readFile(request: IncomingMessage): Promise<File> {
  const length = Number(header(request, "content-length") ?? 0);
  if (length > UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES) throw new HttpError(400, TOO_LARGE);
  let form: FormData;
  try {
    const webRequest = new Request("http://fake-multica/api/upload-file", {
      method: "POST",
      headers: { "content-type": header(request, "content-type") ?? "" },
      body: Readable.toWeb(request) as ReadableStream<Uint8Array>,
      duplex: "half",
    } as RequestInit);
    form = await webRequest.formData();
  } catch {
    throw new HttpError(400, TOO_LARGE);
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw new HttpError(400, "missing file field: http: no such file");
  if (file.size > UPLOAD_MAX_BYTES) throw new HttpError(400, TOO_LARGE);
  return file;
}

function storeAttachment(
  state: FakeMulticaState,
  workspace: WorkspaceRecord,
  user: UserRecord,
  file: File,
  baseUrl: string,
) {
  const id = newId();
  const downloadUrl = `${baseUrl}/api/attachments/${id}/download`;
  const attachment = {
    id,
    workspace_id: workspace.id,
    issue_id: null,
    comment_id: null,
    chat_session_id: null,
    chat_message_id: null,
    uploader_type: "member" as const,
    uploader_id: user.id,
    filename: file.name,
    url: `${baseUrl}/uploads/${workspace.id}/${id}/${encodeURIComponent(file.name)}`,
    download_url: downloadUrl,
    markdown_url: downloadUrl,
    content_type: file.type || "application/octet-stream",
    size_bytes: file.size,
    created_at: secondsTimestamp(),
  };
  state.attachments.set(id, attachment);
  return attachment;
}

export const uploadRoutes: Route[] = [
  // Multipart field `file`. With a workspace header an attachment row is created; without one the
  // file is stored for the user only and its id cannot be used as an attachment id.
  userRoute("POST", "/api/upload-file", async ({ state, user, request, baseUrl }) => {
    const workspace = uploadWorkspace(state, request, user);
    const file = await readFile(request);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const contentType = file.type || "application/octet-stream";
    if (!workspace) {
      const id = newId();
      state.files.set(id, { bytes, contentType, filename: file.name });
      return ok({ id, url: `${baseUrl}/uploads/users/${user.id}/${id}`, filename: file.name });
    }
    const attachment = storeAttachment(state, workspace, user, file, baseUrl);
    state.files.set(attachment.id, { bytes, contentType, filename: file.name });
    return ok(attachment);
  }),
  userRoute("GET", "/api/attachments/:id/download", ({ state, user, params, response }) => {
    const attachment = state.attachments.get(params.id ?? "");
    const file = attachment && state.files.get(attachment.id);
    if (!attachment || !file || !state.isMember(attachment.workspace_id, user.id)) {
      throw new HttpError(404, "attachment not found");
    }
    response.writeHead(200, { "content-type": file.contentType, "content-length": file.bytes.byteLength });
    response.end(file.bytes);
    return undefined;
  }),
];
