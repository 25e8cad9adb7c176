import { describe, expect, it } from "vitest";
import { Base64Stream } from "./base64-stream.js";
import { UploadJsonScanner } from "./upload-json-scanner.js";

/** Scans `body` cut into pieces of `pieceBytes`; returns the kept fields and the decoded streamed field. */
function scan(body: string, pieceBytes: number) {
  const decoded: Buffer[] = [];
  const base64 = new Base64Stream();
  const scanner = new UploadJsonScanner({
    streamedField: "data",
    maxFieldChars: 64,
    onStreamed: (text) => decoded.push(base64.push(text)),
  });
  const bytes = new TextEncoder().encode(body);
  for (let start = 0; start < bytes.length; start += pieceBytes) {
    scanner.push(bytes.subarray(start, start + pieceBytes));
  }
  scanner.end();
  decoded.push(base64.end());
  return {
    fields: Object.fromEntries(scanner.fields),
    data: Buffer.concat(decoded),
    hasData: scanner.hasStreamed,
  };
}

const image = Buffer.from(Array.from({ length: 100 }, (_, index) => (index * 37) % 256));

describe("UploadJsonScanner with Base64Stream", () => {
  const body = JSON.stringify({
    name: 'é "photo" 😀.png',
    type: "image/png",
    data: image.toString("base64").replaceAll("/", "\\/"),
    workspaceId: null,
  }).replaceAll("\\\\/", "\\/");

  it.each([1, 2, 3, 5, 7, 64, body.length])(
    "reads the same fields and bytes whatever the cut (%i bytes)",
    (piece) => {
      const result = scan(body, piece);
      expect(result.fields).toEqual({ name: 'é "photo" 😀.png', type: "image/png", workspaceId: null });
      expect(result.data).toEqual(image);
      expect(result.hasData).toBe(true);
    },
  );

  it("reads \\u escapes, whitespace between tokens and in the base64, and unpadded base64", () => {
    const result = scan(`{ "na\\u006de" : "a\\u00e9.png" ,\n "data":"${"QUJD\\nRA"}" }`, 3);
    expect(result.fields).toEqual({ name: "aé.png" });
    expect(result.data.toString()).toBe("ABCD");
  });

  it.each([
    ['{"name":"a"', "not a complete JSON object"],
    ['{"name":"a"}x', "Unexpected content"],
    ['["a"]', "must be a JSON object"],
    ['{"name":{"a":1}}', "name: must be a string"],
    ['{"name":true}', "name: must be a string"],
    ['{"data":null}', "data: must be a string"],
    ['{"data":"QQ==","data":"QQ=="}', "data: given twice"],
    [`{"name":"${"x".repeat(65)}"}`, "name is too long"],
    ['{"name":"\\q"}', "invalid escape"],
  ])("refuses %s as invalid_request", (text, message) => {
    expect(() => scan(text, 4)).toThrowError(
      expect.objectContaining({ code: "invalid_request", message: expect.stringContaining(message) }),
    );
  });
});

describe("Base64Stream", () => {
  it.each([
    ["QQ=", "="],
    ["Q", "Q=="],
    ["QUJDRA", "=="],
  ])("decodes padding that arrives in another piece (%s + %s)", (first, second) => {
    const stream = new Base64Stream();
    const bytes = Buffer.concat([stream.push(first), stream.push(second), stream.end()]);
    expect(bytes).toEqual(Buffer.from(first + second, "base64"));
  });

  it.each([
    ["QQ==", "QQ"],
    ["Q===", ""],
    ["QUJD!", ""],
    ["A", ""],
  ])("refuses %s%s as invalid_dispatch", (first, second) => {
    const stream = new Base64Stream();
    expect(() => {
      stream.push(first);
      stream.push(second);
      stream.end();
    }).toThrowError(expect.objectContaining({ code: "invalid_dispatch" }));
  });
});
