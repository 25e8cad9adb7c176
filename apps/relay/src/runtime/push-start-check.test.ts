import { describe, expect, it } from "vitest";
import { pushStartWarnings } from "./push-start-check.js";

describe("push start check", () => {
  it("says nothing for a real contact and a public address", () => {
    expect(
      pushStartWarnings({ pushSubject: "mailto:ops@ring.sample.dev", publicUrl: "https://ring.sample.dev" }),
    ).toEqual([]);
  });

  it("says Apple refuses a localhost contact", () => {
    const [line] = pushStartWarnings({
      pushSubject: "mailto:me@localhost",
      publicUrl: "https://ring.sample.dev",
    });
    expect(line).toContain("403 BadJwtToken");
    expect(line).toContain("--push-subject");
  });

  it("warns about the default example contact and a missing public address", () => {
    const lines = pushStartWarnings({ pushSubject: "mailto:ringback-relay@example.org", publicUrl: null });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("reaches nobody");
    expect(lines[1]).toContain("--public-url");
  });
});
