/** The service worker's address in the build (written by scripts/build-sw.mjs next to index.html). */
const SERVICE_WORKER_URL = "sw.js";

/** Installs the service worker that keeps the app shell available offline (production builds only). */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: "./" })
    .catch((error: unknown) => console.warn("The service worker could not be installed.", error));
}
