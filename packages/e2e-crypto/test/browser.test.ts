import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@ringback/test-kit";
import { type Browser, chromium } from "playwright-core";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_DIR } from "../scripts/ensure-dist.ts";
import { loadVectors } from "./load-vectors.ts";
import { type StaticFile, type StaticServer, startStaticServer } from "./static-server.ts";
import { type CheckResult, vectorChecks } from "./vector-checks.ts";

// The page imports the built bundle as an ES module, fetches the vectors and runs the shared checks.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>@ringback/e2e-crypto test vectors</title>
<script type="module">
  try {
    const library = await import("/dist/index.js");
    const { runChecks } = await import("/vector-checks.js");
    const vectors = await (await fetch("/test-vectors.json")).json();
    const results = await runChecks(library, vectors);
    window.__outcome = { results, hasNodeProcess: typeof process !== "undefined" };
  } catch (error) {
    window.__outcome = { failure: String(error && error.stack ? error.stack : error) };
  }
</script>
`;

interface PageOutcome {
  results?: CheckResult[];
  hasNodeProcess?: boolean;
  failure?: string;
}

function pageFiles(): Map<string, StaticFile> {
  const javascript = "text/javascript; charset=utf-8";
  const files = new Map<string, StaticFile>([
    ["/", { body: PAGE, contentType: "text/html; charset=utf-8" }],
    [
      "/test-vectors.json",
      { body: readFileSync(join(PACKAGE_DIR, "test-vectors.json")), contentType: "application/json" },
    ],
    [
      "/vector-checks.js",
      { body: stripTypes(join(PACKAGE_DIR, "test", "vector-checks.ts")), contentType: javascript },
    ],
  ]);
  for (const name of readdirSync(join(PACKAGE_DIR, "dist"))) {
    const contentType = name.endsWith(".js") ? javascript : "text/plain; charset=utf-8";
    files.set(`/dist/${name}`, { body: readFileSync(join(PACKAGE_DIR, "dist", name)), contentType });
  }
  return files;
}

function stripTypes(path: string): string {
  const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
  return ts.transpileModule(readFileSync(path, "utf8"), { compilerOptions }).outputText;
}

describe("in Chromium", () => {
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM_PATH), `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`).toBe(true);
    server = await startStaticServer(pageFiles());
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("dist/index.js passes every test vector", async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction("window.__outcome !== undefined", undefined, { timeout: 50_000 });
    const outcome = (await page.evaluate("window.__outcome")) as PageOutcome;
    await page.close();

    expect(pageErrors).toEqual([]);
    expect(outcome.failure).toBeUndefined();
    expect(outcome.hasNodeProcess).toBe(false);
    const results = outcome.results ?? [];
    expect(results.filter((result) => !result.ok)).toEqual([]);
    expect(results.map((result) => result.name)).toEqual(
      vectorChecks(loadVectors()).map((check) => check.name),
    );
  });
});
