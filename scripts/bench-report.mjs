// What one bench measured: printed as it goes, then kept as that bench's section of BENCHMARKS.md, so the
// latest figures of every bench sit in one file with the day, machine and Node they were measured on.

import { readFile, rename, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const REPORT_FILE = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));
const PREAMBLE = `# Benchmarks

Written by \`pnpm bench\` (\`scripts/bench-report.mjs\`): each bench replaces its own section when it finishes, so a
section's date says when it was last measured. Every figure stands beside its baseline measured in the same run;
the goals are in the tables and in each package's README. No timed test asserts speed.
`;

/** A number with at most a unit after it (`2.42x`, `16.5 MB/s`, `2000 ms`): its column is right-aligned. */
const NUMERIC_CELL = /^[+-]?\d[\d.,]*( ?[^\s\d]\S*)?$/;

/** A markdown table, each column padded to its widest cell; a column of numbers is right-aligned. */
function markdownTable(header, rows) {
  const cells = [header, ...rows].map((row) => header.map((_, column) => String(row[column] ?? "")));
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => row[column].length)));
  const isNumeric = header.map(
    (_, column) => rows.length > 0 && cells.slice(1).every((row) => NUMERIC_CELL.test(row[column])),
  );
  const line = (row) =>
    `| ${row.map((cell, column) => (isNumeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(" | ")} |`;
  const rule = widths.map((width, column) =>
    isNumeric[column] ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2),
  );
  return [line(cells[0]), `|${rule.join("|")}|`, ...cells.slice(1).map(line)];
}

/** The machine's load averages: other work beside the bench's own, which every figure shares. */
function loadText() {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(", ");
}

export class BenchReport {
  #id;
  #title;
  #lines = [];

  /** `id` names the section in BENCHMARKS.md (the package and the bench); `title` is its heading. */
  constructor(id, title) {
    this.#id = id;
    this.#title = title;
  }

  /** Prints a line and keeps it for the section. */
  line(text = "") {
    console.log(text);
    this.#lines.push(text);
  }

  /** Prints a markdown table and keeps it for the section. */
  table(header, rows) {
    for (const text of markdownTable(header, rows)) this.line(text);
  }

  /** Writes the lines kept as this bench's section of BENCHMARKS.md, in place of the one it had. */
  async save() {
    const start = `<!-- bench: ${this.#id} -->`;
    const end = `<!-- /bench: ${this.#id} -->`;
    const cpu = cpus();
    const measured =
      `_Measured ${new Date().toISOString().slice(0, 10)} on ${cpu[0]?.model.trim() ?? "an unknown CPU"} ` +
      `(${cpu.length} cores), Node ${process.version}, ${process.platform} ${process.arch}; load average ` +
      `(1, 5, 15 min) ${loadText()} as it was written._`;
    const body = this.#lines.join("\n").trim();
    const section = [start, `## ${this.#title}`, "", measured, "", body, end].join("\n");
    const current = await readFile(REPORT_FILE, "utf8").catch((error) => {
      if (error.code === "ENOENT") return PREAMBLE;
      throw error;
    });
    const from = current.indexOf(start);
    const to = current.indexOf(end, from);
    const next =
      from >= 0 && to >= 0
        ? current.slice(0, from) + section + current.slice(to + end.length)
        : `${current.trimEnd()}\n\n${section}\n`;
    const temporary = `${REPORT_FILE}.${process.pid}.tmp`;
    await writeFile(temporary, next);
    await rename(temporary, REPORT_FILE);
    console.log(`(written to BENCHMARKS.md, section ${this.#id})`);
  }
}
