// Loaded into the relay process by the bench only (node --expose-gc --import): on SIGUSR2 it collects garbage and
// prints the memory still in use, so "memory per connection" counts what a connection keeps, not garbage.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(`bench-memory ${JSON.stringify({ rss, heapUsed, external, arrayBuffers })}\n`);
});

// stdin is a pipe from the bench: it closes when the bench exits however it ends (over budget, failed, killed with
// SIGKILL), and the server goes with it, so no bench leaves a relay running.
process.stdin.on("data", () => {});
process.stdin.on("end", () => process.exit(1));
process.stdin.on("error", () => process.exit(1));
process.stdin.unref?.();
