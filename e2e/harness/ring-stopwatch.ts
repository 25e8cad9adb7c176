import type { BrowserContext, Page } from "playwright-core";

const GLOBAL_NAME = "__ringbackRingTimes";

// Runs in the page before its own scripts, on every load: notes when each call's ringing screen enters the DOM, as
// Unix time in ms (`performance.timeOrigin + performance.now()` is comparable with the same sum in Node). A string,
// so no transpiler helper ends up in the page.
const STOPWATCH_SCRIPT = `(() => {
  const times = {};
  window.${GLOBAL_NAME} = times;
  new MutationObserver(() => {
    const screen = document.querySelector('[data-testid="ringing-screen"]');
    const eventId = screen && screen.getAttribute("data-event-id");
    if (eventId && !(eventId in times)) times[eventId] = performance.timeOrigin + performance.now();
  }).observe(document, { childList: true, subtree: true });
})();`;

/** Installs the stopwatch in every page of `context` (before the page loads). */
export async function installRingStopwatch(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: STOPWATCH_SCRIPT });
}

/** Event id -> when its ringing screen appeared in this page (since the page last loaded). */
export function ringTimes(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    (name) =>
      ((window as unknown as Record<string, Record<string, number>>)[name] ?? {}) as Record<string, number>,
    GLOBAL_NAME,
  );
}
