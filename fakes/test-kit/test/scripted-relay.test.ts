import { describe, expect, it } from "vitest";
import { eventually, startScriptedRelay } from "../src/index.js";

const SEALED = "e2e1.0011223344556677.iv.ciphertext";

function post(url: string, body: object, token = "device-token") {
  return fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const event = (eventId: string) => ({
  eventId,
  source: "claude-code",
  occurredAt: "2026-01-01T00:00:00.000Z",
  sealed: SEALED,
});

describe("the scripted relay", () => {
  it("accepts posts as the relay does by default, recording each with its answer", async () => {
    await using relay = await startScriptedRelay();
    const answer = await post(`${relay.url}/v1/daemon/events`, event("evt_1"));
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ ok: true });
    expect(relay.posts).toMatchObject([
      { method: "POST", path: "/v1/daemon/events", body: event("evt_1"), answeredWith: 202 },
    ]);
    expect(relay.posts[0]?.headers.authorization).toBe("Bearer device-token");
    expect([...relay.delivered]).toEqual([["evt_1", 1]]);
  });

  it("answers as scripted per attempt, with headers, and keeps a tracker report's task id", async () => {
    await using relay = await startScriptedRelay((_post, attempt) =>
      attempt === 1 ? { status: 429, headers: { "retry-after": "7" } } : { status: 202 },
    );
    const report = { ...event("evt_2"), source: "tracker", taskId: "task-9" };
    const first = await post(`${relay.url}/prefix/v1/daemon/tracker-reports`, report);
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("7");
    expect((await post(`${relay.url}/prefix/v1/daemon/tracker-reports`, report)).status).toBe(202);
    expect(relay.posts.map((entry) => [entry.body.taskId, entry.answeredWith])).toEqual([
      ["task-9", 429],
      ["task-9", 202],
    ]);
    expect(relay.delivered.get("evt_2")).toBe(1);
  });

  it("cuts the connection or holds the answer when told to, and says 404 to anything else", async () => {
    await using relay = await startScriptedRelay(({ body }) =>
      body.eventId === "evt_cut" ? { dropConnection: true } : { hold: true },
    );
    await expect(post(`${relay.url}/v1/daemon/events`, event("evt_cut"))).rejects.toThrow();
    const held = post(`${relay.url}/v1/daemon/events`, event("evt_held")).catch((error: unknown) => error);
    await eventually(() => relay.posts.length === 2, { on: relay.changes });
    expect(relay.posts.map((entry) => entry.answeredWith)).toEqual([null, null]);
    expect((await fetch(`${relay.url}/v1/stream`)).status).toBe(404);
    await relay.close();
    expect(await held).toBeInstanceOf(Error);
  });
});
