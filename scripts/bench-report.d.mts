/** What one bench measured: printed as it goes, then kept as that bench's section of BENCHMARKS.md. */
export class BenchReport {
  /** `id` names the section in BENCHMARKS.md (the package and the bench); `title` is its heading. */
  constructor(id: string, title: string);
  /** Prints a line and keeps it for the section. */
  line(text?: string): void;
  /** Prints a markdown table and keeps it for the section. */
  table(header: readonly string[], rows: readonly (readonly string[])[]): void;
  /** Writes the lines kept as this bench's section of BENCHMARKS.md, in place of the one it had. */
  save(): Promise<void>;
}
