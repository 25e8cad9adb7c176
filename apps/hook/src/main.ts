import { isInstallerRun, isSilentHookRun, ringbackHookCli } from "./cli.js";

const argv = process.argv.slice(2);
// Every failure of the hook exits 0: an agent must never be disturbed by it.
const isHookRun = !isInstallerRun(argv);
if (isHookRun) {
  process.on("uncaughtException", () => process.exit(0));
  process.on("unhandledRejection", () => process.exit(0));
}

ringbackHookCli(argv).then(
  (code) => {
    process.exitCode = code;
    // A hook run ends as soon as its answer is in, without waiting for its connections to wind down. One that
    // wrote something waits until it is out (a pipe can be asynchronous outside Linux); a silent one never touches
    // process.stdout or process.stderr, whose streams would cost every agent turn their setting up.
    if (isSilentHookRun(argv, process.env)) process.exit();
    else if (isHookRun && process.stdout.writableLength === 0 && process.stderr.writableLength === 0)
      process.exit();
  },
  () => {
    process.exitCode = isHookRun ? 0 : 1;
  },
);
