/** The computer's input idle time, or why it cannot be read here (then only the switch and ring modes decide). */
export type IdleReading =
  | { kind: "idle"; seconds: number; source: IdleSource }
  | { kind: "unavailable"; reason: string };

/** Where the idle time came from, as doctor names it. */
export type IdleSource =
  | "X idle counter (xprintidle)"
  | "logind IdleHint"
  | "HIDIdleTime (ioreg)"
  | "last input time (GetLastInputInfo)";

/** Runs a program with arguments and gives its standard output, or throws (missing, failed, too slow). */
export type RunProgram = (program: string, args: readonly string[]) => Promise<string>;
