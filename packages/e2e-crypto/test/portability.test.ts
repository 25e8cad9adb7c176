import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_DIR } from "../scripts/ensure-dist.ts";

const IMPORT_SPECIFIER = /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']/g;

function specifiers(source: string): string[] {
  return [...source.matchAll(IMPORT_SPECIFIER)].map((match) => (match[1] ?? match[2])!);
}

/** The one dependency: scrypt for version 2 passphrase keys (WebCrypto has none), audited, bundled into dist/. */
const BUNDLED_DEPENDENCY = "@noble/hashes";

describe("portability", () => {
  it("src/ imports only its own files and the bundled scrypt: no node: modules", () => {
    const sourceDir = join(PACKAGE_DIR, "src");
    const files = readdirSync(sourceDir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      for (const specifier of specifiers(readFileSync(join(sourceDir, name), "utf8"))) {
        expect(specifier, `${name} imports ${specifier}`).toMatch(
          /^(\.\/[\w-]+|@noble\/hashes\/scrypt)\.js$/,
        );
      }
    }
  });

  it("dist/index.js is one self-contained module", () => {
    const bundle = readFileSync(join(PACKAGE_DIR, "dist", "index.js"), "utf8");
    expect(specifiers(bundle)).toEqual([]);
    expect(bundle).not.toMatch(/\brequire\(/);
    // Node's Buffer and crypto are only ever looked up on globalThis (fast paths, absent in browsers); a method
    // named process (the bundled SHA-256's) is not Node's.
    const nodeGlobals = bundle.match(/[\w.]*\b(?:process\b(?=\s*[.[;])|Buffer\b)/g) ?? [];
    expect(nodeGlobals.filter((name) => !/^(globalThis\.(process|Buffer)|NodeBuffer)$/.test(name))).toEqual(
      [],
    );
  });

  it("has no runtime dependency but the scrypt it bundles", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([BUNDLED_DEPENDENCY]);
    expect(Object.keys(manifest.peerDependencies ?? {})).toEqual([]);
  });
});
