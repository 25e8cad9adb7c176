import { createMemoryStore, SET_ASIDE_IDS_KEY } from "@ringback/client";
import { ANSWERED_IDS_MAX } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { addSetAsideId, loadSetAsideIds } from "./set-aside-ids.js";

describe("the ids of calls set aside with Later", () => {
  it("are kept once each, the oldest going first past the limit", async () => {
    const store = createMemoryStore();
    for (let index = 0; index <= ANSWERED_IDS_MAX; index++) await addSetAsideId(store, `ev${index}`);
    await addSetAsideId(store, `ev${ANSWERED_IDS_MAX}`);
    const ids = await loadSetAsideIds(store);
    expect(ids).toHaveLength(ANSWERED_IDS_MAX);
    expect(ids[0]).toBe("ev1");
    expect(ids.at(-1)).toBe(`ev${ANSWERED_IDS_MAX}`);
  });

  it("read as none when the stored value is not a list of ids", async () => {
    const store = createMemoryStore();
    await store.set(SET_ASIDE_IDS_KEY, "ev1");
    expect(await loadSetAsideIds(store)).toEqual([]);
    await store.set(SET_ASIDE_IDS_KEY, ["ev1", 7]);
    expect(await loadSetAsideIds(store)).toEqual(["ev1"]);
  });
});
