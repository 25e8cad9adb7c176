import { describe, expect, it } from "vitest";
import { keepOrDefault } from "./selection-defaults.js";

const agents = [
  { id: "a-off", online: false },
  { id: "a1", online: true },
  { id: "a2", online: true },
];
const isOnline = (agent: { online: boolean }) => agent.online;

describe("which project or agent stays selected after a re-read", () => {
  it("keeps the current choice while it is listed", () => {
    expect(keepOrDefault(agents, "a2", "a1", isOnline)).toBe("a2");
  });

  it("falls back to the last used one, even an offline agent (the button then says why)", () => {
    expect(keepOrDefault(agents, "gone", "a-off", isOnline)).toBe("a-off");
  });

  it("otherwise takes the first preferred item, else the first, else none", () => {
    expect(keepOrDefault(agents, null, "gone", isOnline)).toBe("a1");
    expect(keepOrDefault([{ id: "x", online: false }], null, null, isOnline)).toBe("x");
    expect(keepOrDefault([], "a1", "a1")).toBeNull();
  });
});
