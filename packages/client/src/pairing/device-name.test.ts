import { describe, expect, it } from "vitest";
import { defaultDeviceName, deviceKindOf } from "./device-name.js";

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const MAC_SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const WINDOWS_EDGE =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0";

describe("device name", () => {
  it("names the browser and the system", () => {
    expect(defaultDeviceName(ANDROID_CHROME)).toBe("Chrome on Android");
    expect(defaultDeviceName(MAC_SAFARI)).toBe("Safari on macOS");
    expect(defaultDeviceName(WINDOWS_EDGE)).toBe("Edge on Windows");
    expect(defaultDeviceName("curl/8")).toBe("Browser");
  });

  it("tells a phone from a desktop browser", () => {
    expect(deviceKindOf(ANDROID_CHROME)).toBe("phone");
    expect(deviceKindOf(MAC_SAFARI)).toBe("browser");
  });
});
