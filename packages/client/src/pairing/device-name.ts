import type { DeviceKind } from "@ringback/protocol";

/** How this browser appears in Settings > Devices until the user renames it: "Chrome on Android". */
export function defaultDeviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad|iPod/.test(userAgent)
      ? "iOS"
      : /Mac OS X|Macintosh/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux|X11/.test(userAgent)
            ? "Linux"
            : null;
  return system ? `${browser} on ${system}` : browser;
}

export function deviceKindOf(userAgent: string): DeviceKind {
  return /Mobi|Android|iPhone|iPad|iPod/.test(userAgent) ? "phone" : "browser";
}
