import type { Interface } from "node:readline";

/**
 * Lines typed on stdin, none lost: taken one by one (a passphrase first) and then handed, in order, to a consumer
 * that may be async (one command finishes before the next starts).
 */
export class LineQueue {
  readonly #lines: string[] = [];
  readonly #input: Interface;
  #waiter: ((line: string | null) => void) | null = null;
  #consumer: ((line: string) => Promise<void>) | null = null;
  #chain: Promise<void> = Promise.resolve();
  #isEnded = false;

  constructor(input: Interface) {
    this.#input = input;
    input.on("line", (line) => this.#push(line));
    input.on("close", () => {
      this.#isEnded = true;
      this.#waiter?.(null);
      this.#waiter = null;
    });
  }

  /** The next line; null once stdin has ended. */
  next(): Promise<string | null> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#isEnded) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Every line from now on (those already waiting first) goes to `consumer`. */
  consume(consumer: (line: string) => Promise<void>): void {
    this.#consumer = consumer;
    for (const line of this.#lines.splice(0)) this.#enqueue(line);
  }

  close(): void {
    this.#input.close();
  }

  #push(line: string): void {
    if (this.#waiter) {
      const waiter = this.#waiter;
      this.#waiter = null;
      waiter(line);
    } else if (this.#consumer) this.#enqueue(line);
    else this.#lines.push(line);
  }

  #enqueue(line: string): void {
    const consumer = this.#consumer;
    if (!consumer) return;
    this.#chain = this.#chain.then(() => consumer(line)).catch(() => undefined);
  }
}
