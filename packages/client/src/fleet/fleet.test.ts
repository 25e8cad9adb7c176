import { generateKey, sealFleetState } from "@ringback/e2e-crypto";
import type { FleetAgent, FleetState, RelayedFleetState } from "@ringback/protocol";
import { FLEET_PAD_STEP_BYTES } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor, secondsAfter, T0 } from "../../test/fixtures.js";
import { FLEET_TEXTS } from "../i18n/texts/fleet.js";
import { badgeCount } from "./badge-count.js";
import { EMPTY_FLEET_BOOK, withComputersOnly, withFleetState } from "./fleet-book.js";
import { type FleetEntry, fleetList } from "./fleet-list.js";
import { FleetWatch } from "./fleet-watch.js";
import { durationText, fleetEntryWords } from "./fleet-words.js";
import { OpenFleetError, openRelayedFleetState } from "./open-fleet-state.js";

function agent(agentId: string, change: Partial<FleetAgent> = {}): FleetAgent {
  return {
    agentId,
    source: "claude-code",
    project: "payments",
    state: "working",
    since: T0.toISOString(),
    eventId: null,
    headline: null,
    ...change,
  };
}

function state(version: number, agents: FleetAgent[]): FleetState {
  return { version, updatedAt: T0.toISOString(), agents };
}

/** As a daemon seals it: padded to the step, under the computer's fleet associated data. */
async function sealedBy(key: Awaited<ReturnType<typeof generateKey>>, computerId: string, plain: unknown) {
  return {
    computerId,
    sealed: await sealFleetState(key, computerId, plain, FLEET_PAD_STEP_BYTES),
    receivedAt: T0.toISOString(),
  } satisfies RelayedFleetState;
}

describe("opening a computer's fleet state", () => {
  it("opens a state sealed for that computer with the account key", async () => {
    const key = await generateKey();
    const sent = state(3, [agent("claude-code:s1")]);
    expect(await openRelayedFleetState(key, await sealedBy(key, "dev_laptop", sent))).toEqual(sent);
  });

  it("refuses a state the relay passes on under another computer's id", async () => {
    const key = await generateKey();
    const relayed = await sealedBy(key, "dev_laptop", state(1, []));
    const moved = { ...relayed, computerId: "dev_desktop" };
    await expect(openRelayedFleetState(key, moved)).rejects.toMatchObject({ code: "corrupted" });
  });

  it("says key_mismatch for a state sealed with another key, invalid_payload for one that is no fleet state", async () => {
    const key = await generateKey();
    const other = await generateKey();
    await expect(
      openRelayedFleetState(key, await sealedBy(other, "dev_a", state(1, []))),
    ).rejects.toBeInstanceOf(OpenFleetError);
    await expect(
      openRelayedFleetState(key, await sealedBy(other, "dev_a", state(1, []))),
    ).rejects.toMatchObject({
      code: "key_mismatch",
    });
    await expect(
      openRelayedFleetState(key, await sealedBy(key, "dev_a", { agents: "none" })),
    ).rejects.toMatchObject({
      code: "invalid_payload",
    });
  });
});

describe("the fleet book keeps the newest state of each computer", () => {
  it("takes a newer version and drops one not newer (a replay, or one overtaken on the way)", () => {
    const v2 = state(2, [agent("a", { state: "finished" })]);
    const book = withFleetState(EMPTY_FLEET_BOOK, "dev_a", v2);
    expect(withFleetState(book, "dev_a", state(1, [agent("a")]))).toBe(book);
    expect(withFleetState(book, "dev_a", state(2, [agent("a")]))).toBe(book);
    const v3 = state(3, []);
    expect(withFleetState(book, "dev_a", v3)).toEqual({ dev_a: v3 });
  });

  it("keeps each computer apart and forgets a computer removed from the account", () => {
    let book = withFleetState(EMPTY_FLEET_BOOK, "dev_a", state(5, []));
    book = withFleetState(book, "dev_b", state(1, []));
    expect(Object.keys(book).sort()).toEqual(["dev_a", "dev_b"]);
    expect(withComputersOnly(book, ["dev_a", "dev_b"])).toBe(book);
    expect(Object.keys(withComputersOnly(book, ["dev_b"]))).toEqual(["dev_b"]);
  });
});

describe("the fleet list", () => {
  it("merges every computer's agents, newest change first", () => {
    let book = withFleetState(
      EMPTY_FLEET_BOOK,
      "dev_a",
      state(1, [
        agent("a1", { since: secondsAfter(T0, 10).toISOString() }),
        agent("a2", { since: secondsAfter(T0, 40).toISOString() }),
      ]),
    );
    book = withFleetState(
      book,
      "dev_b",
      state(9, [agent("b1", { since: secondsAfter(T0, 20).toISOString() })]),
    );
    expect(fleetList(book).map((entry) => `${entry.computerId}/${entry.agentId}`)).toEqual([
      "dev_a/a2",
      "dev_b/b1",
      "dev_a/a1",
    ]);
  });
});

describe("what the card says of an agent", () => {
  const now = secondsAfter(T0, 12 * 60 + 30);
  const entry = (change: Partial<FleetAgent>): FleetEntry => ({ ...agent("a", change), computerId: "dev_a" });

  it("in English: working 12 min, needs you, finished 2 min ago — the brief's headline, failed", () => {
    const t = FLEET_TEXTS.en;
    expect(fleetEntryWords(entry({}), now, t)).toBe("working 12 min");
    expect(fleetEntryWords(entry({ state: "needs-you", headline: null }), now, t)).toBe("needs you");
    const finished = entry({
      state: "finished",
      since: secondsAfter(now, -150).toISOString(),
      headline: "links fixed",
    });
    expect(fleetEntryWords(finished, now, t)).toBe("finished 2 min ago — links fixed");
    expect(fleetEntryWords(entry({ state: "failed" }), now, t)).toBe("failed");
    expect(fleetEntryWords(entry({ since: now.toISOString() }), now, t)).toBe("working, just started");
  });

  it("in Chinese, with the same keys", () => {
    const t = FLEET_TEXTS.zh;
    expect(fleetEntryWords(entry({}), now, t)).toBe("已工作 12 分钟");
    expect(fleetEntryWords(entry({ state: "needs-you", headline: "运行迁移" }), now, t)).toBe(
      "需要你 — 运行迁移",
    );
    const finished = entry({ state: "finished", since: secondsAfter(now, -120).toISOString() });
    expect(fleetEntryWords(finished, now, t)).toBe("2 分钟前完成");
  });

  it("says hours past an hour, and a time ahead of the clock as just now", () => {
    expect(durationText(65 * 60_000, FLEET_TEXTS.en)).toBe("1 h 5 min");
    expect(durationText(120 * 60_000, FLEET_TEXTS.zh)).toBe("2 小时");
    const ahead = entry({ state: "finished", since: secondsAfter(now, 30).toISOString() });
    expect(fleetEntryWords(ahead, now, FLEET_TEXTS.en)).toBe("finished just now");
  });
});

describe("the app badge", () => {
  it("counts agents that need the person and calls not yet answered, a needs-you call once", () => {
    const ringing = recordFor({ eventId: "e_ring" }, { state: "ringing" });
    const missed = recordFor({ eventId: "e_missed" }, { state: "missed", missedReason: "learned-late" });
    const ended = recordFor({ eventId: "e_done" }, { state: "ended", outcome: "answered" });
    const calls = { records: { e_ring: ringing, e_missed: missed, e_done: ended }, answeredIds: [] };
    const entries: FleetEntry[] = [
      { ...agent("a", { state: "needs-you", eventId: "e_ring" }), computerId: "dev_a" },
      { ...agent("b", { state: "needs-you", eventId: "e_other" }), computerId: "dev_b" },
      { ...agent("c", { state: "working" }), computerId: "dev_b" },
    ];
    expect(badgeCount(entries, calls)).toBe(3);
    expect(badgeCount([], { records: {}, answeredIds: [] })).toBe(0);
  });
});

describe("following the fleet from the stream", () => {
  it("keeps the newest readable state of each computer and leaves out one that does not open", async () => {
    const key = await generateKey();
    const watch = new FleetWatch(() => key);
    const seen: number[] = [];
    watch.subscribe(({ book }) => seen.push(book.dev_a?.version ?? -1));
    await watch.receive(await sealedBy(key, "dev_a", state(2, [agent("a")])));
    await watch.receive(await sealedBy(key, "dev_a", state(1, [])));
    await watch.receive(await sealedBy(await generateKey(), "dev_a", state(3, [])));
    expect(seen).toEqual([2]);
    expect(fleetList(watch.view.book).map((entry) => entry.agentId)).toEqual(["a"]);
  });
});
