import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit.js";

describe("group commit", () => {
  it("commits the writes of one turn together when it starts on the next turn", async () => {
    const batches: number[][] = [];
    const commits = new GroupCommit<number, number>(
      "next-turn",
      (inputs) => {
        batches.push([...inputs]);
        return inputs.map((input) => input * 10);
      },
      (input) => {
        batches.push([input]);
        return input * 10;
      },
    );
    expect(await Promise.all([1, 2, 3].map((input) => commits.submit(input)))).toEqual([10, 20, 30]);
    expect(await commits.submit(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it("starts at once and commits what came meanwhile together next", async () => {
    const batches: number[][] = [];
    let release = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const commits = new GroupCommit<number, number>(
      "at-once",
      async (inputs) => {
        batches.push([...inputs]);
        return inputs.map((input) => input * 10);
      },
      async (input) => {
        batches.push([input]);
        if (input === 1) await first;
        return input * 10;
      },
    );
    const results = [1, 2, 3, 4].map((input) => commits.submit(input));
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("runs each write of a failed batch on its own, so only the bad one fails", async () => {
    const alone: number[] = [];
    const commits = new GroupCommit<number, number>(
      "next-turn",
      (inputs) => {
        if (inputs.includes(2)) throw new Error("rolled back");
        return [...inputs];
      },
      (input) => {
        alone.push(input);
        if (input === 2) throw new Error("bad write");
        return input;
      },
    );
    const results = await Promise.allSettled([1, 2, 3].map((input) => commits.submit(input)));
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(alone).toEqual([1, 2, 3]);
  });
});
