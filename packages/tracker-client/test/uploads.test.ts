import { describe, expect, it } from "vitest";
import { clientFor, rejectionOf, startTracker } from "./tracker.js";

describe("file upload", () => {
  it("uploads the bytes as multipart to the workspace, without an issue, and returns id, filename and markdown URL", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);
    const bytes = new Uint8Array(256 * 1024).map((_, index) => index % 251);

    const uploaded = await client.uploadFile({
      workspaceId: tracker.workspace.id,
      filename: "diagram.png",
      contentType: "image/png",
      data: bytes,
    });

    expect(uploaded).toMatchObject({
      filename: "diagram.png",
      contentType: "image/png",
      sizeBytes: bytes.byteLength,
    });
    expect(uploaded.markdownUrl).toBe(`${tracker.fake.url}/api/attachments/${uploaded.id}/download`);
    expect(tracker.state.attachments.get(uploaded.id)).toMatchObject({
      workspace_id: tracker.workspace.id,
      issue_id: null,
    });
    const stored = tracker.state.files.get(uploaded.id)?.bytes ?? new Uint8Array();
    expect(Buffer.from(stored).equals(bytes)).toBe(true);
    const [request] = tracker.fake.requests.matching("POST", "/api/upload-file");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers["x-workspace-id"]).toBe(tracker.workspace.id);
  });

  it("sends a Blob as it is", async () => {
    await using tracker = await startTracker();
    const { client } = clientFor(tracker.fake, tracker.token);

    const uploaded = await client.uploadFile({
      workspaceId: tracker.workspace.id,
      filename: "note.gif",
      contentType: "image/gif",
      data: new Blob(["GIF89a"]),
    });

    expect(new TextDecoder().decode(tracker.state.files.get(uploaded.id)?.bytes)).toBe("GIF89a");
  });

  it("answers workspace_not_found when the user is not a member of the workspace", async () => {
    await using tracker = await startTracker();
    const stranger = tracker.state.addWorkspace({ name: "Elsewhere" });
    const { client } = clientFor(tracker.fake, tracker.token);

    const error = await rejectionOf(
      client.uploadFile({
        workspaceId: stranger.id,
        filename: "a.png",
        contentType: "image/png",
        data: new Uint8Array(1),
      }),
    );

    expect(error).toMatchObject({ code: "workspace_not_found", trackerStatus: 403 });
  });
});
