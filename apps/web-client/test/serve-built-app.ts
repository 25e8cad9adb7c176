import { readFileSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
};

/** Serves a file of the built app as the relay's `--web-root` does: unknown paths get index.html. */
export function serveBuiltApp(root: string, pathname: string, response: ServerResponse): void {
  const relativePath = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, "");
  let path = join(root, relativePath);
  if (!path.startsWith(root) || !isFile(path)) path = join(root, "index.html");
  response
    .writeHead(200, {
      "Content-Type": CONTENT_TYPES[extname(path)] ?? "application/octet-stream",
      "Cache-Control": "no-cache",
    })
    .end(readFileSync(path));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
