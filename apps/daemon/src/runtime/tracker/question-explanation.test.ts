import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AgentComments, type ExplanationWait } from "./question-explanation.js";

const WAIT_MS = 30_000;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-26T10:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A wait started now for the agent "claude" on issue "i1" (moved at `position`), and how it ended once it has. */
function waitOnIssue(comments: AgentComments, position = comments.position()) {
  let ended: ExplanationWait | null = null;
  const waiting = comments.waitFor("i1", "claude", position, Date.now() + WAIT_MS).then((how) => {
    ended = how;
    return how;
  });
  return { waiting, ended: () => ended };
}

function agentComments(signal = new AbortController().signal) {
  return new AgentComments({ now: () => Date.now(), signal, keptMs: WAIT_MS });
}

describe("a move to blocked waiting for the agent's explanation", () => {
  it("ends as soon as the agent that moved the issue writes on it", async () => {
    const comments = agentComments();
    const wait = waitOnIssue(comments);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(wait.ended()).toBeNull();

    comments.seen("i1", "claude");

    await expect(wait.waiting).resolves.toBe("commented");
  });

  it("is not ended by another agent, or by the agent on another issue; it ends at its deadline then", async () => {
    const comments = agentComments();
    const wait = waitOnIssue(comments);
    comments.seen("i1", "codex");
    comments.seen("i2", "claude");
    await vi.advanceTimersByTimeAsync(WAIT_MS - 1);
    expect(wait.ended()).toBeNull();

    await vi.advanceTimersByTimeAsync(1);

    expect(wait.ended()).toBe("timed-out");
  });

  it("counts a comment seen after the move but before the wait began (the two frames race to their handlers)", async () => {
    const comments = agentComments();
    const movedAt = comments.position();
    comments.seen("i1", "claude");

    await expect(waitOnIssue(comments, movedAt).waiting).resolves.toBe("commented");
  });

  it("does not count the agent's comment seen before the move, even in the same millisecond", async () => {
    const comments = agentComments();
    comments.seen("i1", "claude");
    const wait = waitOnIssue(comments);
    await vi.advanceTimersByTimeAsync(10);
    expect(wait.ended()).toBeNull();

    await vi.advanceTimersByTimeAsync(WAIT_MS);

    expect(wait.ended()).toBe("timed-out");
  });

  it("ends at once when the daemon stops", async () => {
    const stopping = new AbortController();
    const comments = agentComments(stopping.signal);
    const wait = waitOnIssue(comments);

    stopping.abort();

    await expect(wait.waiting).resolves.toBe("stopped");
    expect(vi.getTimerCount()).toBe(0);
  });
});
