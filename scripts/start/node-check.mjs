import { readFileSync } from "node:fs";

function parts(version) {
  return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

function isOlder(found, minimum) {
  for (let index = 0; index < minimum.length; index++) {
    const difference = (found[index] ?? 0) - (minimum[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}

/**
 * `pnpm start` runs the relay and the daemon on the Node.js that runs it, so it needs what the relay needs
 * (`engines.node` of apps/relay, for node:sqlite). The line to print when this Node is older, or null.
 */
export function nodeTooOldForStart(relayPackagePath, found, startCommand) {
  const engines = JSON.parse(readFileSync(relayPackagePath, "utf8")).engines?.node ?? "";
  const minimum = /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(engines.trim())?.[1];
  if (minimum === undefined || !isOlder(parts(found), parts(minimum))) return null;
  return (
    `Node.js ${found} is too old: the relay needs Node.js ${minimum} or later (for node:sqlite). ` +
    `Run ${startCommand}, which uses the workspace's own Node.js 24 (after ${startCommand.replace(/ start$/, " install")}).`
  );
}
