import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { locateDaemon } from "./daemon-location.js";
import { DEFAULT_LOCAL_PORT } from "./protocol-constants.js";

const dirs: TemporaryDirectory[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => dir.remove()));
});

async function dataDir(files: Record<string, string>): Promise<string> {
  const dir = await makeTemporaryDirectory("ringback-data-");
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir.path, name), content);
  return dir.path;
}

describe("locateDaemon", () => {
  it("reads localPort and the trimmed key from RINGBACK_HOME", async () => {
    const dir = await dataDir({
      "daemon.json": '{"localPort": 9123, "e2e": {}}',
      "local-api.key": "  k3y\n",
    });
    expect(locateDaemon({ RINGBACK_HOME: dir })).toEqual({ dataDir: dir, port: 9123, key: "k3y" });
  });

  it.each([
    ["no daemon.json", {}],
    ["no localPort", { "daemon.json": '{"serverUrl":"https://relay.example"}' }],
    ["a malformed daemon.json", { "daemon.json": "{oops" }],
    ["an impossible port", { "daemon.json": '{"localPort": 70000}' }],
  ])("uses the default port with %s", async (_name, files) => {
    const dir = await dataDir(files);
    expect(locateDaemon({ RINGBACK_HOME: dir })).toMatchObject({ port: DEFAULT_LOCAL_PORT, key: undefined });
  });
});
