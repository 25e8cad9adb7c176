import { ERROR_STATUS, type ErrorCode } from "@ringback/protocol";

/** An answer as received: its status and its body text. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly body: string;
  /** The request's method: a HEAD answer has no body, so only its status is judged. */
  readonly method?: string;
}

export interface AnswerRules {
  /** Values that must never appear in an answer (keys, tokens, the claim code). */
  readonly secrets: readonly string[];
  /** Error codes a server answers with 5xx on purpose (e.g. `computer_offline`); any other 5xx is a bug. */
  readonly deliberate5xx: readonly ErrorCode[];
}

/**
 * What is wrong with an answer, or null: a 5xx that is not deliberate; a 4xx or 5xx without the error envelope
 * `{error: {code, message}}`, with a code the spec does not have, or with another status than the code's; a secret
 * in the body.
 */
export function answerViolation(answer: ReceivedAnswer, rules: AnswerRules): string | null {
  const secret = rules.secrets.find((value) => value.length > 0 && answer.body.includes(value));
  if (secret !== undefined) return `a secret (${secret.slice(0, 4)}…) is in the answer`;
  if (answer.status < 400) return null;
  if (answer.method === "HEAD") return answer.status >= 500 ? `HEAD answered ${answer.status}` : null;
  let envelope: unknown;
  try {
    envelope = JSON.parse(answer.body);
  } catch {
    return `${answer.status} without a JSON error envelope: ${answer.body.slice(0, 80)}`;
  }
  const error = (envelope as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof error?.code !== "string" || typeof error.message !== "string")
    return `${answer.status} without {error: {code, message}}: ${answer.body.slice(0, 80)}`;
  if (!(error.code in ERROR_STATUS))
    return `${answer.status} with a code the spec does not have: ${error.code}`;
  const code = error.code as ErrorCode;
  if (ERROR_STATUS[code] !== answer.status)
    return `${answer.status} with ${code}, whose status is ${ERROR_STATUS[code]}`;
  if (answer.status >= 500 && !rules.deliberate5xx.includes(code))
    return `${answer.status} ${code}: not deliberate`;
  return null;
}

/** The first secret found in any of `lines`, for the servers' logs. */
export function secretInLines(lines: readonly string[], secrets: readonly string[]): string | null {
  for (const line of lines) {
    const secret = secrets.find((value) => value.length > 0 && line.includes(value));
    if (secret !== undefined)
      return `a secret (${secret.slice(0, 4)}…) is in the log line: ${line.slice(0, 120)}`;
  }
  return null;
}

/** Counts of answers by status, for the figure a fuzz test prints. */
export class StatusTally {
  readonly #counts = new Map<number, number>();
  total = 0;

  add(status: number): void {
    this.#counts.set(status, (this.#counts.get(status) ?? 0) + 1);
    this.total += 1;
  }

  toString(): string {
    return [...this.#counts.entries()]
      .sort(([left], [right]) => left - right)
      .map(([status, count]) => `${status}×${count}`)
      .join(" ");
  }
}
