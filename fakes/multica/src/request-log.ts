import type { IncomingHttpHeaders } from "node:http";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case header names, as received. */
  headers: Record<string, string>;
}

/** Every request the simulator received (HTTP and WebSocket upgrades), in arrival order. */
export class RequestLog {
  readonly entries: RecordedRequest[] = [];

  record(method: string, url: URL, headers: IncomingHttpHeaders): void {
    const flatHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) flatHeaders[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    this.entries.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flatHeaders,
    });
  }

  /** Requests with this method and path (exact pathname or pattern). */
  matching(method: string, path: string | RegExp): RecordedRequest[] {
    return this.entries.filter(
      (entry) =>
        entry.method === method && (typeof path === "string" ? entry.path === path : path.test(entry.path)),
    );
  }

  count(method: string, path: string | RegExp): number {
    return this.matching(method, path).length;
  }

  clear(): void {
    this.entries.length = 0;
  }
}
