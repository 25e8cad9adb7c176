import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import { Readable } from "node:stream";
import { errorBody } from "@ringback/protocol";
import { type Context, Hono } from "hono";
import { getMimeType } from "hono/utils/mime";
import type { RelayEnv } from "../relay-env.js";

const API_PREFIX = "/v1/";
const APP_SHELL = "index.html";

/** Build output whose name carries its content hash (Vite's `assets/<name>-<8 characters>.<ext>`): never changes. */
const HASHED_ASSET = /^assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;
/** A year: the longest `max-age` caches honour; with `immutable` a hashed file is never revalidated. */
const WEB_IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** The page, the service worker and the unhashed files: revalidated on every load, so an upgrade shows at once. */
const WEB_REVALIDATE_CACHE_CONTROL = "no-cache";

/**
 * The web app's Content-Security-Policy: scripts, styles and connections from the relay itself only (plus the
 * origins the operator lists with `--web-connect-origins`, such as a language model the devices ask), images and
 * sounds from the relay or made in the page, no plugins, no `<base>`, no framing. An injected script can then
 * neither load more code nor send the key it finds anywhere but to this relay.
 */
function webContentSecurityPolicy(connectOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${["'self'", ...connectOrigins].join(" ")}`,
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers every answer from the web root carries (the API's carry `nosniff` too, see app.ts). */
function securityHeaders(connectOrigins: readonly string[]): Record<string, string> {
  return {
    "Content-Security-Policy": webContentSecurityPolicy(connectOrigins),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Referrer-Policy": "no-referrer",
  };
}

/** Why a path is refused outright (404) rather than answered with the app shell. */
type Resolved =
  | { readonly kind: "file"; readonly handle: FileHandle; readonly size: number; readonly mtimeMs: number }
  | { readonly kind: "missing" }
  | { readonly kind: "refused" };

/**
 * Static files (the web app) at `/`; a path with no file gets index.html, so the app's own routes load. Only regular
 * files inside the root are served: a path naming a dot-file or dot-directory (`.env`, `.git/`) or reaching a
 * symbolic link anywhere is 404, whatever the link points at.
 */
export function webRootRoutes(webRoot: string, connectOrigins: readonly string[] = []): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  const headers = securityHeaders(connectOrigins);
  // The root itself may sit behind links (a package manager's store): it is resolved once, everything below it
  // must then resolve to exactly its own path.
  const root = realpath(webRoot);
  routes.on(["GET", "HEAD"], "*", async (c, next) => {
    if (c.req.path.startsWith(API_PREFIX)) return next();
    const segments = pathSegments(new URL(c.req.url).pathname);
    const rootPath = await root;
    const resolved =
      segments === null
        ? ({ kind: "refused" } as const)
        : await resolveFile(rootPath, segments.length === 0 ? [APP_SHELL] : segments);
    if (resolved.kind === "refused") return c.json(errorBody("not_found"), 404, headers);
    if (resolved.kind === "file") return serve(c, resolved, segments?.join("/") || APP_SHELL, headers);
    const shell = await resolveFile(rootPath, [APP_SHELL]);
    if (shell.kind !== "file") return next();
    return serve(c, shell, APP_SHELL, headers);
  });
  return routes;
}

/**
 * The path's segments, percent-decoded; null when one is empty in the middle, a dot-name (`.`, `..`, `.env`) or
 * holds a separator or NUL once decoded. A trailing slash names the directory, which has no file (the app shell).
 */
function pathSegments(pathname: string): string[] | null {
  const raw = pathname.split("/").slice(1);
  if (raw.at(-1) === "") raw.pop();
  const segments: string[] = [];
  for (const part of raw) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment === "" || segment.startsWith(".") || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/** Opens `segments` under `root` when it is a regular file reached through no symbolic link. */
async function resolveFile(root: string, segments: readonly string[]): Promise<Resolved> {
  const path = join(root, ...segments);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { kind: "missing" };
  }
  // A link anywhere on the way (a file or a directory) makes the real path differ from the asked one.
  if (real !== path || !real.startsWith(root + sep)) return { kind: "refused" };
  let handle: FileHandle;
  try {
    // O_NOFOLLOW: a file swapped for a link after the check above is still not followed.
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { kind: "refused" };
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    return { kind: "missing" };
  }
  return { kind: "file", handle, size: stats.size, mtimeMs: stats.mtimeMs };
}

async function serve(
  c: Context<RelayEnv>,
  file: Resolved & { kind: "file" },
  name: string,
  security: Record<string, string>,
): Promise<Response> {
  const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    ...security,
    "Content-Type": getMimeType(name) ?? "application/octet-stream",
    "Cache-Control": HASHED_ASSET.test(name) ? WEB_IMMUTABLE_CACHE_CONTROL : WEB_REVALIDATE_CACHE_CONTROL,
    ETag: etag,
    "Last-Modified": new Date(file.mtimeMs).toUTCString(),
  };
  if (c.req.header("If-None-Match") === etag) {
    await file.handle.close();
    return c.body(null, 304, headers);
  }
  headers["Content-Length"] = String(file.size);
  if (c.req.method === "HEAD") {
    await file.handle.close();
    return c.body(null, 200, headers);
  }
  const stream = file.handle.createReadStream({ autoClose: true });
  return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>, 200, headers);
}
