/** Resolves once `check` returns a value other than undefined; `notify` re-runs the checks. */
export class Waiters {
  readonly #pending = new Set<() => void>();

  notify(): void {
    for (const run of [...this.#pending]) run();
  }

  until<T>(check: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        const value = check();
        if (value === undefined) return;
        this.#pending.delete(run);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.#pending.delete(run);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`));
      }, timeoutMs);
      this.#pending.add(run);
      run();
    });
  }
}
