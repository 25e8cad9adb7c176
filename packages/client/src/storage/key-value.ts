/** The device's storage as the app uses it: IndexedDB in the browser, memory where IndexedDB is unavailable. */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  /** Rejects with a `QuotaExceededError` when storage is full. */
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
}

/** True for the error a browser raises when storage is full. */
export function isQuotaExceeded(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    ((error as { name?: unknown }).name === "QuotaExceededError" || (error as { code?: unknown }).code === 22)
  );
}
