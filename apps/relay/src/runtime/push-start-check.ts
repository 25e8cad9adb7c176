import { vapidSubjectCheck } from "@ringback/protocol";

/**
 * What the relay says at start about its pushes, one line each: a VAPID contact Apple's push service would refuse (or
 * may refuse), and a missing `--public-url`, without which a push cannot be a declarative message (it must name an
 * absolute address to open) and a browser that shows pushes by itself gets none to show. Empty when all is well.
 */
export function pushStartWarnings(config: {
  readonly pushSubject: string;
  readonly publicUrl: string | null;
}): string[] {
  const warnings: string[] = [];
  const subject = vapidSubjectCheck(config.pushSubject);
  if (subject.kind !== "ok") warnings.push(`push: ${subject.reason} (--push-subject)`);
  if (config.publicUrl === null) {
    warnings.push(
      "push: no --public-url, so pushes are not declarative: Safari and iPhone home-screen apps ring only when the service worker shows the call itself",
    );
  }
  return warnings;
}
