import { describe, expect, it } from "vitest";
import { firstSentence, NOTIFICATION_BODY_MAX_CHARS } from "./first-sentence.js";

describe("first sentence of a brief", () => {
  it("ends at the first full stop, question or exclamation mark", () => {
    expect(firstSentence("The release is ready. One test fails.")).toBe("The release is ready.");
    expect(firstSentence("Shall I merge?  The branch is green.")).toBe("Shall I merge?");
    expect(firstSentence("发布已就绪。一个测试失败。")).toBe("发布已就绪。");
  });

  it("keeps a version number or a path whole", () => {
    expect(firstSentence("Node 24.1 is required now. Rebuild.")).toBe("Node 24.1 is required now.");
    expect(firstSentence("Edited src/app.ts\nand tests.")).toBe("Edited src/app.ts and tests.");
  });

  it("cuts a very long sentence with an ellipsis", () => {
    const body = firstSentence(`${"word ".repeat(100)}end.`);
    expect(body.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX_CHARS);
    expect(body.endsWith("…")).toBe(true);
  });
});
