import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessRelay } from "./support/in-process-relay.js";
import { tempDir } from "./support/temp-dir.js";

async function webRoot() {
  const dir = await tempDir("ringback-web-root-");
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
