import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";
import { inProcessRelay } from "./support/in-process-relay.js";

async function webRoot() {
  const dir = await makeTemporaryDirectory("ringback-web-root-");
  await writeFile(join(dir.path, "index.html"), "<!doctype html><title>Ringback</title>");
  await mkdir(join(dir.path, "assets"));
  await writeFile(join(dir.path, "assets", "app.js"), "console.log('app');");
  return dir;
}

describe("web root", () => {
  it("serves the web app's files and falls back to index.html for the app's own paths", async () => {
    await using root = await webRoot();
    await using relay = await inProcessRelay({ webRoot: root.path });
    const index = await relay.request("GET", "/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toMatch(/text\/html/);
    expect(index.body).toContain("<title>Ringback</title>");
    const script = await relay.request("GET", "/assets/app.js");
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.body).toBe("console.log('app');");
    const deepLink = await relay.request("GET", "/calls/ev1");
    expect(deepLink.status).toBe(200);
    expect(deepLink.body).toContain("<title>Ringback</title>");
  });

  it("keeps /v1 as the API", async () => {
    await using root = await webRoot();
    await using relay = await inProcessRelay({ webRoot: root.path });
    expect((await relay.request("GET", "/v1/health")).body.ok).toBe(true);
    const unknown = await relay.request("GET", "/v1/unknown");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });

  it("does not serve files outside the root", async () => {
    await using root = await webRoot();
    await using relay = await inProcessRelay({ webRoot: root.path });
    const outside = await relay.request("GET", "/..%2f..%2fetc%2fpasswd");
    expect(String(outside.body)).not.toContain("root:");
  });

  it("serves nothing but the API without a web root", async () => {
    await using relay = await inProcessRelay();
    expect((await relay.request("GET", "/")).status).toBe(404);
  });
});

describe("web root served by the relay process: headers, caching, links and dot-files", () => {
  const SECRET = "RINGBACK_SECRET_DO_NOT_SERVE";

  /** A web root as a careless deploy leaves it: dot-files, links to files and directories outside it. */
  async function carelessRoot(outside: string) {
    const dir = await webRoot();
    await writeFile(join(dir.path, "sw.js"), "self.addEventListener('push', () => {});");
    await writeFile(join(dir.path, "assets", "index-AbCd12_-.js"), "console.log('hashed');");
    await writeFile(join(dir.path, "manifest.webmanifest"), "{}");
    await writeFile(join(dir.path, ".env"), `TOKEN=${SECRET}`);
    await mkdir(join(dir.path, ".git"));
    await writeFile(join(dir.path, ".git", "config"), SECRET);
    await writeFile(join(outside, "secret.txt"), SECRET);
    await symlink(join(outside, "secret.txt"), join(dir.path, "linked.txt"));
    await symlink(outside, join(dir.path, "linked-dir"));
    await symlink(join(outside, "secret.txt"), join(dir.path, "assets", "linked-AbCd1234.js"));
    return dir;
  }

  it("sends the security headers and cache rules, and refuses symbolic links and dot-files", async () => {
    await using outside = await makeTemporaryDirectory("ringback-outside-root-");
    await using root = await carelessRoot(outside.path);
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path, args: ["--web-root", root.path] });
    const get = async (path: string) => {
      const response = await fetch(new URL(path, relay.url));
      return { status: response.status, headers: response.headers, body: await response.text() };
    };

    const page = await get("/");
    expect(page.status).toBe(200);
    const policy = (page.headers.get("content-security-policy") ?? "").split(/;\s*/);
    expect(policy).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]),
    );
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    // The app's own routes get the page, with the same rules.
    const deepLink = await get("/calls/ev1");
    expect(deepLink.body).toContain("<title>Ringback</title>");
    expect(deepLink.headers.get("cache-control")).toBe("no-cache");
    expect(deepLink.headers.get("content-security-policy")).toBe(page.headers.get("content-security-policy"));

    const worker = await get("/sw.js");
    expect(worker.status).toBe(200);
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    expect(worker.headers.get("content-security-policy")).toBe(page.headers.get("content-security-policy"));
    const hashed = await get("/assets/index-AbCd12_-.js");
    expect(hashed.body).toBe("console.log('hashed');");
    expect(hashed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await get("/manifest.webmanifest")).headers.get("cache-control")).toBe("no-cache");
    // The API answers are never sniffed either.
    expect((await get("/v1/health")).headers.get("x-content-type-options")).toBe("nosniff");

    for (const path of [
      "/.env",
      "/%2eenv",
      "/.git/config",
      "/assets/../.env",
      "/linked.txt",
      "/linked-dir/secret.txt",
      "/assets/linked-AbCd1234.js",
    ]) {
      const refused = await get(path);
      expect({ path, status: refused.status }).toEqual({ path, status: 404 });
      expect(refused.body).not.toContain(SECRET);
    }
  });
});
