import { Changes, eventually } from "@ringback/test-kit";
import type { BrowserContext, CDPSession, Page, Worker } from "playwright-core";
import type { PushLogEntry } from "../../packages/client/src/push/push-log.ts";

/** A notification the device's service worker shows, as `registration.getNotifications()` lists it. */
export interface ShownNotification {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly silent: boolean | null;
  readonly requireInteraction: boolean;
}

/**
 * A device's service worker as a push service reaches it: through the DevTools protocol of a blank tab in the
 * device's browser context (`ServiceWorker.deliverPushMessage`), so the web app's own page may be closed. A real
 * browser's `PushManager` would subscribe at the vendor's push service, which a loopback-only test cannot reach.
 */
export class DeviceServiceWorker implements AsyncDisposable {
  readonly #context: BrowserContext;
  readonly #origin: string;
  readonly #tab: Page;
  readonly #cdp: CDPSession;
  readonly registrationId: string;
  /** What the browser reported of the worker: errors it threw, and its registrations' and versions' changes. */
  readonly #events: string[];

  private constructor(
    context: BrowserContext,
    origin: string,
    tab: Page,
    cdp: CDPSession,
    registrationId: string,
    events: string[],
  ) {
    this.#context = context;
    this.#origin = origin;
    this.#tab = tab;
    this.#cdp = cdp;
    this.registrationId = registrationId;
    this.#events = events;
  }

  /** Uncaught errors the service worker reported (an event handler that threw or rejected). */
  get errors(): string[] {
    return this.#events.filter((line) => line.startsWith("error "));
  }

  /**
   * Opens a blank tab in the device's context and finds the web app's service worker registration (scope `origin`),
   * waiting until a version of it is activated. The app must have loaded once in the context.
   */
  static async attach(context: BrowserContext, origin: string, checks: number): Promise<DeviceServiceWorker> {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    const scope = `${origin.replace(/\/+$/, "")}/`;
    const scopes = new Map<string, string>();
    const activated = new Set<string>();
    const events: string[] = [];
    const changes = new Changes();
    const at = () => new Date().toISOString().slice(11, 23);
    cdp.on("ServiceWorker.workerErrorReported", ({ errorMessage: error }) => {
      events.push(`error ${at()} ${error.errorMessage} (${error.sourceURL}:${error.lineNumber})`);
    });
    // Registrations and versions arrive as separate events, in either order.
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      for (const registration of registrations) {
        scopes.set(registration.registrationId, registration.scopeURL);
        if (registration.isDeleted)
          events.push(`${at()} registration ${registration.registrationId} deleted`);
      }
      changes.notify();
    });
    cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
      for (const version of versions) {
        if (version.status === "activated") activated.add(version.registrationId);
        events.push(
          `${at()} registration ${version.registrationId} version ${version.versionId}: ${version.status}, ${version.runningStatus}`,
        );
      }
      changes.notify();
    });
    await cdp.send("ServiceWorker.enable");
    try {
      const registrationId = await eventually(() => [...activated].find((id) => scopes.get(id) === scope), {
        what: `an activated service worker for ${scope}`,
        checks,
        on: changes,
      });
      return new DeviceServiceWorker(context, origin, tab, cdp, registrationId, events);
    } catch (error) {
      await tab.close();
      throw error;
    }
  }

  /** Delivers a push message's data to the service worker, as the browser does when its push service sends one. */
  /**
   * Delivers a push of the call `eventId` and resolves once the worker has handled it (its push log has a new outcome
   * for the call). Reading the notifications only then matters: Chromium drops from `getNotifications()` a
   * notification it is asked about while it is still being displayed, so a read during the show can lose it for good.
   */
  async deliverPush(data: string, eventId: string, checks: number): Promise<void> {
    const outcomes = async () =>
      (await this.pushLog()).filter((entry) => entry.eventId === eventId && entry.step !== "received").length;
    const before = await outcomes();
    await this.#cdp.send("ServiceWorker.deliverPushMessage", {
      origin: this.#origin,
      registrationId: this.registrationId,
      data,
    });
    try {
      await eventually(async () => (await outcomes()) > before, {
        what: `the worker's handling of ${eventId}`,
        checks,
      });
    } catch (error) {
      throw new Error(`${String(error)}\n${await this.diagnosis()}`, { cause: error });
    }
  }

  /** The worker's push log (what it did with each push, newest first), from the device's storage. */
  pushLog(): Promise<PushLogEntry[]> {
    return this.#runningWorker().evaluate(
      () =>
        new Promise<PushLogEntry[]>((resolve, reject) => {
          const opening = indexedDB.open("keyval-store");
          opening.onerror = () => reject(opening.error);
          opening.onsuccess = () => {
            const reading = opening.result.transaction("keyval").objectStore("keyval").get("pushLog");
            reading.onsuccess = () => resolve((reading.result as PushLogEntry[] | undefined) ?? []);
            reading.onerror = () => reject(reading.error);
          };
        }),
    );
  }

  /** The notifications the service worker's registration shows (`tag` limits them to one call's). */
  async notifications(tag?: string): Promise<ShownNotification[]> {
    return this.#runningWorker().evaluate(async (tag) => {
      const registration = (self as unknown as { registration: ServiceWorkerRegistration }).registration;
      return (await registration.getNotifications(tag ? { tag } : undefined)).map((shown) => ({
        title: shown.title,
        body: shown.body,
        tag: shown.tag,
        silent: shown.silent,
        requireInteraction: shown.requireInteraction,
      }));
    }, tag);
  }

  /** Closes the registration's notifications with `tag`, as a click on one does; returns how many it closed. */
  async closeNotifications(tag: string): Promise<number> {
    return this.#runningWorker().evaluate(async (tag) => {
      const registration = (self as unknown as { registration: ServiceWorkerRegistration }).registration;
      const shown = await registration.getNotifications({ tag });
      for (const notification of shown) notification.close();
      return shown.length;
    }, tag);
  }

  /**
   * What a failed wait should print: the registration pushes go to, the browser's reports about the worker, and,
   * from the running worker, every notification it shows and the keys in the device's storage.
   */
  async diagnosis(): Promise<string> {
    const lines = [`pushes go to registration ${this.registrationId}`, ...this.#events.slice(-30)];
    try {
      const seen = await this.#runningWorker().evaluate(async () => {
        const registration = (self as unknown as { registration: ServiceWorkerRegistration }).registration;
        const shown = (await registration.getNotifications()).map(
          (notice) => `${notice.tag}: ${notice.title}`,
        );
        const keys = await new Promise<string>((resolve) => {
          const opening = indexedDB.open("keyval-store");
          opening.onerror = () => resolve(`storage unreadable: ${opening.error}`);
          opening.onsuccess = () => {
            const listing = opening.result.transaction("keyval").objectStore("keyval").getAllKeys();
            listing.onsuccess = () => resolve(listing.result.map(String).join(", "));
            listing.onerror = () => resolve(`storage unreadable: ${listing.error}`);
          };
        });
        return { state: registration.active?.state ?? "none", shown, keys };
      });
      lines.push(
        `running worker: ${seen.state}; shown: [${seen.shown.join("; ")}]; stored keys: ${seen.keys}`,
        `its push log, newest first: ${JSON.stringify(await this.pushLog())}`,
      );
    } catch (error) {
      lines.push(`running worker unreachable: ${String(error)}`);
    }
    return lines.join("\n");
  }

  #runningWorker(): Worker {
    const worker = this.#context
      .serviceWorkers()
      .find((candidate) => candidate.url().startsWith(this.#origin));
    if (!worker) throw new Error(`no running service worker for ${this.#origin}`);
    return worker;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#cdp.detach().catch(() => undefined);
    await this.#tab.close().catch(() => undefined);
  }
}
