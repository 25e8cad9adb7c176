/** A piece of app state the screens render: a view object replaced on every change, and its listeners. */
export class Observable<View extends object> {
  #view: View;
  readonly #listeners = new Set<(view: View) => void>();

  constructor(initial: View) {
    this.#view = initial;
  }

  get view(): View {
    return this.#view;
  }

  subscribe(listener: (view: View) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  protected update(change: Partial<View>): void {
    this.#view = { ...this.#view, ...change };
    for (const listener of this.#listeners) listener(this.#view);
  }
}
