import { describe, expect, it } from "vitest";
import { NoComputerError } from "../daemon/computer-choice.js";
import { askComputer } from "./ask-computer.js";

describe("askComputer", () => {
  it("shows the screen busy while the request runs, and free again once it worked", async () => {
    const changes: object[] = [];
    const worked = await askComputer(
      (change) => changes.push(change),
      { busy: "saving", problem: null, notice: null },
      async () => "client",
      async (client) => {
        changes.push({ askedWith: client });
      },
    );
    expect(worked).toBe(true);
    expect(changes).toEqual([
      { busy: "saving", problem: null, notice: null },
      { askedWith: "client" },
      { busy: null },
    ]);
  });

  it("turns a failure, the client's own included, into the screen's problem instead of throwing", async () => {
    const changes: object[] = [];
    const worked = await askComputer(
      (change) => changes.push(change),
      { busy: "loading", problem: null },
      () => Promise.reject(new NoComputerError()),
      async () => {},
    );
    expect(worked).toBe(false);
    expect(changes).toEqual([
      { busy: "loading", problem: null },
      { problem: { kind: "no-computer", detail: null } },
      { busy: null },
    ]);
  });
});
