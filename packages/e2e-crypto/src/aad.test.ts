import { describe, expect, it } from "vitest";
import { aad, aadFor, aadTo } from "./aad.js";
import { generateKey } from "./key.js";
import { openString } from "./open.js";
import { sealString } from "./seal.js";

describe("associated data", () => {
  it("names the purpose and the id", () => {
    expect(aad.report("evt-1")).toBe("ringback/v1/report/evt-1");
    expect(aad.reply("evt-1")).toBe("ringback/v1/reply/evt-1");
    expect(aad.replyError("rpl-1")).toBe("ringback/v1/reply-error/rpl-1");
    expect(aad.settingsRequest("req-1")).toBe("ringback/v1/settings-request/req-1");
    expect(aad.settingsResult("req-1")).toBe("ringback/v1/settings-result/req-1");
    expect(aad.keyRotation("rot-1")).toBe("ringback/v1/key-rotation/rot-1");
    expect(aad.fleet("dev_laptop")).toBe("ringback/v1/fleet/dev_laptop");
    expect(aadFor("reply-error", "claude:session:prompt")).toBe(
      "ringback/v1/reply-error/claude:session:prompt",
    );
  });

  it("names the computer a request or a reply is addressed to", () => {
    expect(aad.settingsRequestTo("dev_laptop", "req-1")).toBe(
      "ringback/v2/settings-request/dev_laptop/req-1",
    );
    expect(aad.replyTo("dev_laptop", "evt-1")).toBe("ringback/v2/reply/dev_laptop/evt-1");
    expect(aad.permissionDecisionTo("dev_laptop", "needs_1")).toBe(
      "ringback/v2/permission-decision/dev_laptop/needs_1",
    );
    expect(aadTo("reply", "dev_a", "evt-1")).not.toBe(aadTo("reply", "dev_b", "evt-1"));
    expect(() => aadTo("report" as never, "dev_a", "evt-1")).toThrow(
      expect.objectContaining({ code: "invalid_aad" }),
    );
    for (const [computerId, id] of [
      ["", "req-1"],
      ["dev/a", "req-1"],
      ["dev_a", "req/1"],
      ["dev\na", "req-1"],
    ]) {
      expect(() => aad.settingsRequestTo(computerId as string, id as string)).toThrow(
        expect.objectContaining({ code: "invalid_aad" }),
      );
    }
  });

  it("does not open a request addressed to one computer as addressed to another, nor as an older request", async () => {
    const key = generateKey();
    const sealed = await sealString(key, aad.settingsRequestTo("dev_a", "req-1"), "{}");
    expect(await openString(key, aad.settingsRequestTo("dev_a", "req-1"), sealed)).toBe("{}");
    for (const other of [aad.settingsRequestTo("dev_b", "req-1"), aad.settingsRequest("req-1")]) {
      await expect(openString(key, other, sealed)).rejects.toMatchObject({ code: "corrupted" });
    }
  });

  it.each([
    ["empty", ""],
    ["a slash", "evt/1"],
    ["a newline", "evt\n1"],
    ["a NUL", "evt\u00001"],
    ["DEL", "evt\u007f"],
    ["not a string", 7],
  ])("rejects an id with %s as invalid_aad", (_case, id) => {
    expect(() => aad.report(id as string)).toThrow(expect.objectContaining({ code: "invalid_aad" }));
  });

  it("refuses, when sealing or opening, associated data no builder made", async () => {
    const key = generateKey();
    const sealed = await sealString(key, aad.reply("evt-1"), "hello");
    for (const made of [undefined, "", "evt-1", "ringback/v3/reply/evt-1", "ringback/reply/evt-1"]) {
      await expect(sealString(key, made as never, "hello")).rejects.toMatchObject({ code: "invalid_aad" });
      await expect(openString(key, made as never, sealed)).rejects.toMatchObject({ code: "invalid_aad" });
    }
  });

  it("rejects an unknown purpose as invalid_aad", () => {
    expect(() => aadFor("call" as never, "x")).toThrow(expect.objectContaining({ code: "invalid_aad" }));
  });
});
