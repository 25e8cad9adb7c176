/**
 * The app shell offline: every built file is cached at install; navigations go to the network first (a new build
 * is picked up at once) and fall back to the cached index.html; hashed assets come from the cache.
 * The relay API (`v1/`, including the SSE stream) is never cached.
 */

const SHELL_CACHE_PREFIX = "ringback-shell-";
const SHELL_CACHE = `${SHELL_CACHE_PREFIX}${__CACHE_VERSION__}`;
const INDEX = "index.html";
const API_PREFIX = "v1/";

export async function precacheShell(scope: string): Promise<void> {
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll(__PRECACHE_URLS__.map((url) => new URL(url, scope).href));
}

export async function deleteOldShells(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
  }
}

/** The response for a request the shell handles, or null to let the browser go to the network as usual. */
export function shellResponse(request: Request, scope: string): Promise<Response> | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  const scopeUrl = new URL(scope);
  if (url.origin !== scopeUrl.origin || !url.pathname.startsWith(scopeUrl.pathname)) return null;
  if (url.pathname.startsWith(scopeUrl.pathname + API_PREFIX)) return null;
  if (request.mode === "navigate") return networkFirst(request, new URL(INDEX, scope).href);
  return cacheFirst(request);
}

async function networkFirst(request: Request, fallbackUrl: string): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(fallbackUrl, { cacheName: SHELL_CACHE });
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cached = await caches.match(request, { cacheName: SHELL_CACHE, ignoreSearch: true });
  return cached ?? fetch(request);
}
