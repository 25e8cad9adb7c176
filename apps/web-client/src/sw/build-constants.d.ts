/** Every file of the build the shell needs offline, relative to the service worker (written in at build time). */
declare const __PRECACHE_URLS__: readonly string[];
/** A hash of those files' contents: a new build gets a new cache. */
declare const __CACHE_VERSION__: string;
