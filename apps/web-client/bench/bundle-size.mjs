// Prints the gzipped size of the built web app's JavaScript: the first load (the entry index.html loads and its
// static imports), everything, and the service worker, as a table that is also its section of BENCHMARKS.md.
// Run after `pnpm build`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { BenchReport } from "../../../scripts/bench-report.mjs";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(join(dist, "index.html"))) {
  console.error("dist/ is missing: run `pnpm --filter @ringback/web-client build` first.");
  process.exit(1);
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const sizeOf = (path) => {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

const assets = readdirSync(join(dist, "assets")).filter((name) => name.endsWith(".js"));
const html = readFileSync(join(dist, "index.html"), "utf8");
const entries = assets.filter((name) => html.includes(`assets/${name}`));

// The first load: entry chunks and what they import statically (`import ... from "./x.js"` at the top level).
const firstLoad = new Set();
const visit = (name) => {
  if (firstLoad.has(name)) return;
  firstLoad.add(name);
  const code = readFileSync(join(dist, "assets", name), "utf8");
  for (const match of code.matchAll(
    /(?:^|[;}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([\w.-]+\.js)["']/g,
  ))
    visit(match[1]);
};
entries.forEach(visit);

const rows = assets
  .map((name) => ({
    file: `assets/${name}`,
    ...sizeOf(join(dist, "assets", name)),
    isFirstLoad: firstLoad.has(name),
  }))
  .sort((a, b) => b.gzip - a.gzip);
const serviceWorker = existsSync(join(dist, "sw.js")) ? sizeOf(join(dist, "sw.js")) : null;
const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
const firstRows = rows.filter((row) => row.isFirstLoad);

const table = [
  ...rows.map((row) => [
    `${row.file}${row.isFirstLoad ? " (first load)" : " (on demand)"}`,
    kib(row.raw),
    kib(row.gzip),
  ]),
  ...(serviceWorker ? [["sw.js (service worker)", kib(serviceWorker.raw), kib(serviceWorker.gzip)]] : []),
  ["first load JS", kib(sum(firstRows, "raw")), kib(sum(firstRows, "gzip"))],
  ["all page JS", kib(sum(rows, "raw")), kib(sum(rows, "gzip"))],
];
const report = new BenchReport("@ringback/web-client bundle-size", "@ringback/web-client: JavaScript size");
report.line("web app JavaScript size (gzip -9)");
report.line();
report.table(["what", "raw", "gzip"], table);
await report.save();
