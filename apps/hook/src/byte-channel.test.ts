import { describe, expect, it } from "vitest";
import { type ByteChannel, type Transport, withFallback } from "./byte-channel.js";

function fakeChannel(label: string): ByteChannel & { label: string } {
  return { label, read: () => {}, write: () => {}, close: () => {} };
}

function fakeTransport(name: string, throws: boolean): Transport {
  const open = (what: string) => {
    if (throws) throw new TypeError(`${name} cannot open ${what}`);
    return fakeChannel(`${name} ${what}`);
  };
  return { name, stdin: () => open("stdin"), connect: (port) => open(`port ${port}`) };
}

const labelOf = (channel: ByteChannel | undefined) => (channel as { label?: string } | undefined)?.label;

describe("withFallback", () => {
  it("opens every stream with the primary transport while it can", () => {
    const transport = withFallback(fakeTransport("fast", false), fakeTransport("portable", false));
    expect(labelOf(transport.stdin())).toBe("fast stdin");
    expect(labelOf(transport.connect(8790))).toBe("fast port 8790");
    expect(transport.name).toBe("fast");
  });

  it("opens with the fallback what the primary throws on, and says so in its name", () => {
    const transport = withFallback(fakeTransport("fast", true), fakeTransport("portable", false));
    expect(labelOf(transport.connect(8790))).toBe("portable port 8790");
    expect(labelOf(transport.stdin())).toBe("portable stdin");
    expect(transport.name).toBe("portable (fast failed to open)");
  });
});
