import { spawn } from "node:child_process";
import { DAEMON_BIN } from "./daemon-process.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ringback <args>` to its end with `stdin` as its input (empty when not given). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, stdin = ""): Promise<CliResult> {
  const child = spawn(process.execPath, [DAEMON_BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}
