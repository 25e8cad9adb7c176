import { describe, expect, it } from "vitest";
import { nodeTooOldMessage, nodeWithoutSqliteMessage } from "./node-version.js";

const RUN = { engines: ">=22.16", script: "/usr/lib/node_modules/@ringback/relay/dist/main.js", args: [] };

describe("the relay's Node.js version check", () => {
  it("refuses a Node older than engines.node, naming both versions and a command with Node 24", () => {
    for (const found of ["20.20.2", "22.15.1", "22.5.0", "18.0.0"]) {
      const message = nodeTooOldMessage({ ...RUN, found });
      expect(message).toContain(`Node.js ${found} is too old: the relay needs Node.js 22.16 or later`);
      expect(message).toContain(`npx --yes -p node@24 node ${RUN.script}`);
      expect(message).not.toContain("\n");
    }
  });

  it("runs on engines.node and later", () => {
    for (const found of ["22.16.0", "22.22.1", "24.21.0", "25.0.0"])
      expect(nodeTooOldMessage({ ...RUN, found })).toBeNull();
  });

  it("repeats the arguments in the command, quoted where a shell needs it", () => {
    const message = nodeTooOldMessage({
      ...RUN,
      found: "20.0.0",
      args: ["--data", "/srv/my relay", "--port=0"],
    });
    expect(message).toContain(`node ${RUN.script} --data '/srv/my relay' --port=0 `);
  });

  it("says what is missing on a Node recent by number whose node:sqlite is behind a flag", () => {
    const message = nodeWithoutSqliteMessage({ ...RUN, found: "23.3.0" });
    expect(message).toMatch(/^Node\.js 23\.3\.0 has no node:sqlite, which the relay needs \(>=22\.16/);
    expect(message).toContain("npx --yes -p node@24 node");
  });
});
