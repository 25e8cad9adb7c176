// The oldest Node.js the relay runs on is `engines.node` in its package.json (`>=22.16`): `node:sqlite` without a flag
// and its `timeout` option (the busy timeout the store relies on) arrived in 22.16 (in 23.10 on the 23 line).
// This module runs before the Node is known to be recent: it uses nothing an old one lacks (no `replaceAll`).

/** What the check compares, and the command to repeat with a supported Node. */
export interface NodeVersionCheck {
  /** The version found, without the `v` (`process.versions.node`). */
  readonly found: string;
  /** `engines.node` as the package declares it: `>=MAJOR[.MINOR[.PATCH]]`. */
  readonly engines: string;
  /** The command as it was run, for the message: the bin's path and its arguments. */
  readonly script: string;
  readonly args: readonly string[];
}

function parts(version: string): number[] {
  return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

function isOlder(found: number[], minimum: number[]): boolean {
  for (let index = 0; index < minimum.length; index++) {
    const difference = (found[index] ?? 0) - (minimum[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}

/** A word of a shell command, quoted only when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** The same command, run with Node.js 24 from npm: what the messages below offer to copy. */
function withSupportedNode(check: NodeVersionCheck): string {
  return ["npx", "--yes", "-p", "node@24", "node", check.script, ...check.args].map(shellWord).join(" ");
}

/**
 * The one line a person on a Node.js too old for the relay reads (the version found, the one needed, and the same
 * command run with a supported Node), or null when this Node is recent enough or `engines` says nothing usable.
 */
export function nodeTooOldMessage(check: NodeVersionCheck): string | null {
  const minimum = /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(check.engines.trim())?.[1];
  if (minimum === undefined || !isOlder(parts(check.found), parts(minimum))) return null;
  return (
    `Node.js ${check.found} is too old: the relay needs Node.js ${minimum} or later (for node:sqlite). ` +
    `Run it with Node.js 24: ${withSupportedNode(check)}   (or install it: nvm install 24)`
  );
}

/** The line for a Node.js recent enough by number that still lacks `node:sqlite` (23.0 to 23.3 keep it behind a flag). */
export function nodeWithoutSqliteMessage(check: NodeVersionCheck): string {
  return (
    `Node.js ${check.found} has no node:sqlite, which the relay needs (${check.engines.trim()}, and 23.10 or later on 23). ` +
    `Run it with Node.js 24: ${withSupportedNode(check)}   (or install it: nvm install 24)`
  );
}
