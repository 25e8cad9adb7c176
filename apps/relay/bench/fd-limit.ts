import { execFileSync } from "node:child_process";

/**
 * Fails with the figures unless this process (the load generator, one socket per stream) and the servers it starts
 * may open `needed` files. Node raises its soft `ulimit -n` to the hard limit at start, and children inherit it, so
 * the limit a shell started from here reports is what every bench process gets.
 */
export function ensureOpenFiles(needed: number): void {
  const limit = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
  if (limit === "unlimited" || Number(limit) >= needed) return;
  throw new Error(
    `The bench needs ${needed} open files per process; ulimit -n allows ${limit}: raise the hard limit.`,
  );
}
