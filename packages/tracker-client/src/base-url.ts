/** Multica's public API (the cloud deployment), used when nothing else is configured. */
export const MULTICA_PUBLIC_API_URL = "https://api.multica.ai";

/** Environment variable that overrides the tracker API base address. */
export const TRACKER_API_URL_ENV = "DAEMON_TRACKER_API_URL";

/** `baseUrl` if given, else `DAEMON_TRACKER_API_URL`, else Multica's public API; no trailing slash. */
export function resolveTrackerApiUrl(baseUrl?: string): string {
  const chosen = baseUrl || process.env[TRACKER_API_URL_ENV] || MULTICA_PUBLIC_API_URL;
  return chosen.replace(/\/+$/, "");
}

export type QueryValue = string | number | boolean | undefined;

/** `<base><path>?<query>`, leaving out undefined query values. */
export function trackerUrl(baseUrl: string, path: string, query: Record<string, QueryValue> = {}): URL {
  const url = new URL(`${baseUrl}${path}`);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}

/** The realtime address: the API base with `ws(s)://`, path `/ws`, the workspace in the query. */
export function realtimeUrl(baseUrl: string, workspaceId: string): string {
  const url = trackerUrl(baseUrl, "/ws", { workspace_id: workspaceId });
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}
