import { readdir } from "node:fs/promises";
import { UPLOAD_BODY_MAX_BYTES, UPLOAD_IMAGE_MAX_BYTES } from "@ringback/protocol";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pngBytes, startTrackerHarness, type TrackerHarness } from "./tracker-harness.js";

let harness: TrackerHarness;
const systemTemporaryDirectory = process.env.TMPDIR;
let uploadTemporaryDirectory: TemporaryDirectory;

// A temp dir of this file's own, so that leftover upload files are counted here and nowhere else.
beforeAll(async () => {
  uploadTemporaryDirectory = await makeTemporaryDirectory("ringback-upload-test-");
  process.env.TMPDIR = uploadTemporaryDirectory.path;
});

afterAll(async () => {
  if (systemTemporaryDirectory === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTemporaryDirectory;
  await uploadTemporaryDirectory.remove();
});

beforeEach(async () => {
  harness = await startTrackerHarness();
  await harness.configure();
});

afterEach(async () => {
  await harness.close();
});

async function errorOf(response: Response) {
  return {
    status: response.status,
    ...((await response.json()) as { error: { code: string; message: string } }).error,
  };
}

async function leftoverUploadDirectories(): Promise<string[]> {
  return (await readdir(uploadTemporaryDirectory.path)).filter((name) => name.startsWith("ringback-upload-"));
}

/**
 * A body made on the fly in 1 MiB pieces, never held whole: `{"name","type","data":"<head><filler…>"}`
 * with `fillerBase64Chars` of base64 after the image's head, then `trailingSpaces` of JSON whitespace.
 */
function generatedBody(options: { head: Buffer; fillerBase64Chars: number; trailingSpaces?: number }) {
  const piece = 1024 * 1024;
  const prefix = `{"name":"big.png","type":"image/png","data":"${options.head.toString("base64")}`;
  const parts: (() => string)[] = [() => prefix];
  for (let left = options.fillerBase64Chars; left > 0; left -= piece) {
    const size = Math.min(piece, left);
    parts.push(() => "A".repeat(size));
  }
  parts.push(() => '"');
  for (let left = options.trailingSpaces ?? 0; left > 0; left -= piece) {
    const size = Math.min(piece, left);
    parts.push(() => " ".repeat(size));
  }
  parts.push(() => "}");
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts[index];
      index += 1;
      if (next) controller.enqueue(new TextEncoder().encode(next()));
      else controller.close();
    },
  });
}

describe("POST /tracker/uploads", () => {
  it("forwards one image to the tracker's upload without an issue and returns the attachment", async () => {
    const bytes = pngBytes(5000);
    const { attachment } = await harness.call("/tracker/uploads", {
      body: { name: "screenshot.png", type: "image/png", data: bytes.toString("base64") },
    });
    expect(attachment).toEqual({
      id: expect.any(String),
      filename: "screenshot.png",
      markdownUrl: `${harness.fake.url}/api/attachments/${attachment.id}/download`,
    });
    const stored = harness.state.files.get(attachment.id);
    expect(Buffer.from(stored?.bytes ?? [])).toEqual(bytes);
    expect(stored?.contentType).toBe("image/png");
    expect(harness.state.attachments.get(attachment.id)).toMatchObject({
      workspace_id: harness.workspace.id,
      issue_id: null,
    });
    expect(await leftoverUploadDirectories()).toEqual([]);
  });

  it("sends the type the image's bytes show and reads JSON escapes in the data", async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 1)]);
    const escaped = jpeg.toString("base64").replaceAll("/", "\\/");
    const response = await harness.request("/tracker/uploads", {
      body: `{"name":"photo.png","type":"image/png","data":"${escaped}","workspaceId":null}`,
    });
    const { attachment } = (await response.json()) as { attachment: { id: string } };
    expect(response.status).toBe(200);
    expect(harness.state.files.get(attachment.id)?.contentType).toBe("image/jpeg");
    expect(Buffer.from(harness.state.files.get(attachment.id)?.bytes ?? [])).toEqual(jpeg);
  });

  it.each([
    [
      "bytes that are not an image",
      { type: "image/png", data: Buffer.from("just some text").toString("base64") },
    ],
    ["a declared type that is not an image", { type: "text/plain", data: pngBytes().toString("base64") }],
    ["data that is not base64", { type: "image/png", data: "not base64 at all!" }],
    ["empty data", { type: "image/png", data: "" }],
  ])("answers 400 invalid_dispatch for %s, and uploads nothing", async (_, fields) => {
    const response = await harness.request("/tracker/uploads", { body: { name: "x.png", ...fields } });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: "invalid_dispatch" });
    expect(harness.fake.requests.count("POST", "/api/upload-file")).toBe(0);
    expect(await leftoverUploadDirectories()).toEqual([]);
  });

  it(`answers 400 invalid_dispatch for an image over ${UPLOAD_IMAGE_MAX_BYTES} bytes, read as a stream`, async () => {
    // 4 base64 characters are 3 bytes: just enough characters for one byte over the limit.
    const head = pngBytes(0);
    const fillerBase64Chars = Math.ceil(((UPLOAD_IMAGE_MAX_BYTES - head.length + 1) * 4) / 3 / 4) * 4;
    const response = await harness.request("/tracker/uploads", {
      body: generatedBody({ head, fillerBase64Chars }),
    });
    expect(await errorOf(response)).toMatchObject({
      status: 400,
      code: "invalid_dispatch",
      message: `The image is over ${UPLOAD_IMAGE_MAX_BYTES} bytes.`,
    });
    expect(harness.fake.requests.count("POST", "/api/upload-file")).toBe(0);
    expect(await leftoverUploadDirectories()).toEqual([]);
  });

  it(`answers 413 for a body over ${UPLOAD_BODY_MAX_BYTES} bytes, declared or counted on the stream`, async () => {
    const declared = await harness.request("/tracker/uploads", {
      body: "{}",
      headers: { "content-length": String(UPLOAD_BODY_MAX_BYTES + 1) },
    });
    expect(await errorOf(declared)).toMatchObject({ status: 413, code: "payload_too_large" });
    const streamed = await harness.request("/tracker/uploads", {
      body: generatedBody({ head: pngBytes(), fillerBase64Chars: 0, trailingSpaces: UPLOAD_BODY_MAX_BYTES }),
    });
    expect(await errorOf(streamed)).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(await leftoverUploadDirectories()).toEqual([]);
  });

  it("answers 415 for a body that is not application/json, and 400 for malformed JSON", async () => {
    const wrongType = await harness.request("/tracker/uploads", {
      body: "x",
      headers: { "content-type": "image/png" },
    });
    expect(await errorOf(wrongType)).toMatchObject({ status: 415, code: "unsupported_media_type" });
    for (const body of [
      '{"name":"a.png","type":"image/png"',
      '{"name":["a"],"type":"image/png","data":"AA=="}',
    ]) {
      expect(await errorOf(await harness.request("/tracker/uploads", { body }))).toMatchObject({
        status: 400,
        code: "invalid_request",
      });
    }
  });

  it("answers 422 tracker_not_configured without a saved token", async () => {
    await harness.call("/tracker/settings", { method: "DELETE" });
    const response = await harness.request("/tracker/uploads", {
      body: { name: "x.png", type: "image/png", data: pngBytes().toString("base64") },
    });
    expect(await errorOf(response)).toMatchObject({ status: 422, code: "tracker_not_configured" });
  });
});
