// Builds the service worker after `vite build`: lists every file in dist/ for the precache, hashes them into the
// cache version, and bundles src/sw/service-worker.ts to dist/sw.js with both written in.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const SERVICE_WORKER_FILE = "sw.js";

function filesUnder(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const files = filesUnder(dist)
  .map((path) => relative(dist, path).split(sep).join("/"))
  .filter((path) => path !== SERVICE_WORKER_FILE && !path.startsWith(".vite/"))
  .sort();
const hash = createHash("sha256");
for (const file of files) hash.update(file).update(readFileSync(join(dist, file)));
const version = hash.digest("hex").slice(0, 16);
// "./" is the navigation entry point; index.html is its offline fallback.
const precache = ["./", ...files];

await build({
  entryPoints: [join(root, "src/sw/service-worker.ts")],
  outfile: join(dist, SERVICE_WORKER_FILE),
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  // Chinese notification texts as UTF-8, not \uXXXX escapes (a third of their size).
  charset: "utf8",
  define: { __PRECACHE_URLS__: JSON.stringify(precache), __CACHE_VERSION__: JSON.stringify(version) },
  logLevel: "warning",
});
console.log(`service worker: ${precache.length} files precached, cache version ${version}`);
