/** The Badging API where the browser has it (an installed web app on most systems). */
interface BadgingNavigator {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/**
 * Shows a count on the app's icon: what needs the person (agents waiting, calls not answered). Zero clears it. Where
 * the browser has no badge, nothing happens; a refused badge (not installed, no permission) is no error.
 */
export function appBadge(navigator: BadgingNavigator): (count: number) => void {
  return (count) => {
    if (typeof navigator.setAppBadge !== "function") return;
    const done =
      count > 0 || typeof navigator.clearAppBadge !== "function"
        ? navigator.setAppBadge(count)
        : navigator.clearAppBadge();
    done.catch(() => undefined);
  };
}
