import { describe, expect, it } from "vitest";
import { appBadge } from "./app-badge.js";

describe("the app badge", () => {
  it("sets the count, clears it at zero, and does nothing where the browser has no badge", async () => {
    const calls: string[] = [];
    const navigator = {
      setAppBadge: async (count?: number) => {
        calls.push(`set ${count}`);
      },
      clearAppBadge: async () => {
        calls.push("clear");
      },
    };
    const badge = appBadge(navigator);
    badge(3);
    badge(0);
    expect(calls).toEqual(["set 3", "clear"]);
    expect(() => appBadge({})(2)).not.toThrow();
  });

  it("takes a refused badge quietly", async () => {
    const refused = appBadge({ setAppBadge: () => Promise.reject(new Error("NotAllowedError")) });
    expect(() => refused(1)).not.toThrow();
  });
});
