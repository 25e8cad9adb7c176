import type { Page } from "playwright-core";

// The web app keeps its data in idb-keyval's default IndexedDB database and store (apps/web-client/src/app/storage/
// idb-key-value.ts); the key names are the app's own (src/shared/storage-keys.ts).
const DATABASE = "keyval-store";
const STORE = "keyval";

/** Writes one value into the device's storage, as the app itself would; the app reads it at its next start. */
export function writeDeviceValue(page: Page, key: string, value: unknown): Promise<void> {
  return page.evaluate(
    ({ database, store, key, value }) =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open(database);
        opening.onupgradeneeded = () => opening.result.createObjectStore(store);
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const connection = opening.result;
          const transaction = connection.transaction(store, "readwrite");
          transaction.objectStore(store).put(value, key);
          transaction.oncomplete = () => {
            connection.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    { database: DATABASE, store: STORE, key, value },
  );
}

/** Reads one value from the device's storage (undefined when absent). */
export function readDeviceValue(page: Page, key: string): Promise<unknown> {
  return page.evaluate(
    ({ database, store, key }) =>
      new Promise<unknown>((resolve, reject) => {
        const opening = indexedDB.open(database);
        opening.onupgradeneeded = () => opening.result.createObjectStore(store);
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const connection = opening.result;
          const request = connection.transaction(store, "readonly").objectStore(store).get(key);
          request.onsuccess = () => {
            connection.close();
            resolve(request.result);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    { database: DATABASE, store: STORE, key },
  );
}
