import { expect, it } from "vitest";
import type { RelayStore } from "../../src/store/store.js";

/**
 * A store opened again on the same place (a data folder, a schema) finds its data and its migration version as
 * they were. `freshPlace` makes an empty place; `open` opens (and migrates) a store on it.
 */
export function itKeepsItsDataAcrossAReopen(
  freshPlace: () => Promise<string>,
  open: (place: string) => RelayStore | Promise<RelayStore>,
): void {
  it("keeps its data and migration version across a reopen", async () => {
    const place = await freshPlace();
    const first = await open(place);
    await first.createAccount({
      accountId: "acc1",
      device: { id: "pc", name: "pc", kind: "computer", tokenHash: "h" },
      now: 1,
    });
    const version = await first.migrationVersion();
    await first.close();
    const second = await open(place);
    expect(await second.migrationVersion()).toBe(version);
    expect((await second.findDeviceByTokenHash("h"))?.id).toBe("pc");
    await second.close();
  });
}
