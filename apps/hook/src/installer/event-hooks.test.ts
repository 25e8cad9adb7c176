import { describe, expect, it } from "vitest";
import { editStopHooks } from "./event-hooks.js";

const ours = (path: string) => ({
  type: "command",
  command: `"/usr/bin/node" "${path}/ringback-hook.mjs" codex`,
  timeout: 10,
});
const theirs = (name: string) => ({ type: "command", command: name });

describe("editStopHooks", () => {
  it("replaces an older Ringback handler where it stands, so nothing else moves", () => {
    const document = {
      hooks: { Stop: [{ hooks: [theirs("a")] }, { hooks: [ours("/old")] }, { hooks: [theirs("b")] }] },
    };
    const edit = editStopHooks(document, ours("/new"));
    expect(edit.document).toEqual({
      hooks: { Stop: [{ hooks: [theirs("a")] }, { hooks: [ours("/new")] }, { hooks: [theirs("b")] }] },
    });
    expect(edit).toMatchObject({
      changed: true,
      removed: [{ group: 1, handler: 0 }],
      added: { group: 1, handler: 0 },
      moved: [],
    });
    expect(document.hooks.Stop[1]?.hooks[0]).toEqual(ours("/old"));
  });

  it("reports the handlers that move when ours are taken out", () => {
    const document = {
      hooks: {
        Stop: [{ hooks: [ours("/x"), theirs("a")] }, { hooks: [ours("/y")] }, { hooks: [theirs("b")] }],
      },
    };
    const edit = editStopHooks(document, undefined);
    expect(edit.document).toEqual({ hooks: { Stop: [{ hooks: [theirs("a")] }, { hooks: [theirs("b")] }] } });
    expect(edit.removed).toEqual([
      { group: 0, handler: 0 },
      { group: 1, handler: 0 },
    ]);
    expect(edit.moved).toEqual([
      { from: { group: 0, handler: 1 }, to: { group: 0, handler: 0 } },
      { from: { group: 2, handler: 0 }, to: { group: 1, handler: 0 } },
    ]);
  });

  it("changes nothing when uninstalling from settings without our hook", () => {
    const document = { model: "x", hooks: { Stop: [{ hooks: [theirs("a")] }] } };
    expect(editStopHooks(document, undefined)).toMatchObject({ changed: false, document });
    expect(editStopHooks({}, undefined)).toMatchObject({ changed: false, document: {} });
  });
});
