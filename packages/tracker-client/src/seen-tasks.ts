/** Task ids a watcher remembers as reported; the oldest are forgotten beyond this many. */
export const SEEN_TASKS_MAX = 10_000;

/** A bounded set of task ids, forgetting the oldest first. */
export class SeenTasks {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = SEEN_TASKS_MAX) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
  }

  delete(id: string): void {
    this.ids.delete(id);
  }

  get size(): number {
    return this.ids.size;
  }
}
