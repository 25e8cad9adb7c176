import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { nginxConfig, relayHttpBlock } from "./support/nginx-config.js";

const README = new URL("../README.md", import.meta.url);
/** The README's example: nginx on 8080 in front of relays on 8787 and 8788. */
const README_LISTENER = { name: "relay", port: 8080, upstream: [{ port: 8787 }, { port: 8788 }] };

describe("the nginx config of the tests and the bench", () => {
  it("is the one apps/relay/README.md shows", async () => {
    const readme = await readFile(README, "utf8");
    expect(readme).toContain(`\`\`\`nginx\n${relayHttpBlock([README_LISTENER])}\n\`\`\``);
  });

  it("keeps every path nginx writes under its own directory, and marks backups", () => {
    const config = nginxConfig({
      dir: "/tmp/nginx-x",
      listeners: [{ name: "prefer_a", port: 9000, upstream: [{ port: 1 }, { port: 2, isBackup: true }] }],
    });
    const paths = [...config.matchAll(/^\s*(?:pid|error_log|access_log|\w+_temp_path) ([^\s;]+)/gm)].map(
      (match) => match[1],
    );
    expect(paths).toHaveLength(8);
    for (const path of paths) expect(path?.startsWith("/tmp/nginx-x/")).toBe(true);
    expect(config).toContain("server 127.0.0.1:2 max_fails=1 fail_timeout=10s backup;");
    expect(config).toContain("daemon off;");
  });
});
