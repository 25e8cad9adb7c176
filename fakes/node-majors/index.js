import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The extra majors this package holds; the workspace's own Node (24) is the one running the tests. */
const MAJORS = [22, 26];

/** Each extra Node.js major with its binary, or `undefined` where npm left it out (not Linux x64). */
export function nodeMajors() {
  return MAJORS.map((major) => {
    const path = join(here, "node_modules", `node-${major}`, "bin", "node");
    return { major, path: existsSync(path) ? path : undefined };
  });
}
