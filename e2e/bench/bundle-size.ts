import { fileURLToPath } from "node:url";
import { runCommand } from "../harness/service-process.ts";

/** The web client's own size bench, whose figures are reused here rather than measured twice. */
const BUNDLE_SIZE_SCRIPT = fileURLToPath(
  new URL("../../apps/web-client/bench/bundle-size.mjs", import.meta.url),
);

export interface BundleSize {
  /** Gzipped JS of the first load, as apps/web-client/bench/bundle-size.mjs prints it ("66.2 KiB"). */
  readonly firstLoadGzip: string;
  /** Gzipped JS of every page chunk. */
  readonly allPageGzip: string;
}

/** The gzip cell of a row of the markdown table the size bench prints: `| first load JS | raw | gzip |`. */
function gzipOf(table: string, row: string): string | undefined {
  return new RegExp(`^\\|\\s*${row}\\s*\\|[^|]*\\|\\s*([^|]*?)\\s*\\|$`, "m").exec(table)?.[1];
}

/** Runs the web client's size bench on its built dist/ and reads its gzip figures from the table it prints. */
export async function measureBundleSize(): Promise<BundleSize> {
  const result = await runCommand([BUNDLE_SIZE_SCRIPT], { PATH: process.env.PATH });
  const firstLoadGzip = gzipOf(result.stdout, "first load JS");
  const allPageGzip = gzipOf(result.stdout, "all page JS");
  if (result.code !== 0 || !firstLoadGzip || !allPageGzip) {
    throw new Error(`${BUNDLE_SIZE_SCRIPT} gave no figures:\n${result.stdout}${result.stderr}`);
  }
  return { firstLoadGzip, allPageGzip };
}
