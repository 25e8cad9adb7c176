import { isInstallerRun, ringbackHookCli } from "./cli.js";

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
  },
  () => {
    process.exitCode = isHookRun ? 0 : 1;
  },
);
