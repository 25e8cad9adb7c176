import { expect, it } from "vitest";
import { startSystem } from "../harness/system.ts";

/**
 * The web app as the relay serves it, under the relay's Content-Security-Policy (scripts, styles and connections
 * from the relay only, no framing): it loads, pairs, streams, rings, answers and shows its pages, and Chromium
 * reports no violation of the policy on the way.
 */
it("works under the relay's Content-Security-Policy with no violation reported", async () => {
  await using system = await startSystem();
  await using phone = await system.addDevice("phone");
  const violations: string[] = [];
  phone.page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await phone.page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await phone.page.addInitScript(() => {
    // The test's types are Node's (no DOM lib): the page's globals are described here.
    const page = globalThis as unknown as {
      document: { addEventListener(type: string, listener: (event: Record<string, unknown>) => void): void };
      reportViolation: (text: string) => void;
    };
    page.document.addEventListener("securitypolicyviolation", (event) => {
      page.reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  // From here on every page load runs under the policy with the listener in place.
  const loaded = await phone.page.reload();
  const policy = loaded?.headers()["content-security-policy"] ?? "";
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("connect-src 'self'");
  await phone.waitForStream();

  await system.agentFinishes("Renamed the config loader and updated its 12 callers; the tests pass.");
  const eventId = await phone.waitForRinging();
  await phone.answer(eventId);
  await phone.hangUp(eventId);
  await phone.openCalls();
  await phone.historyRow(eventId).waitFor();
  await phone.page.getByTestId("nav-dispatch").click();
  await phone.page.getByTestId("nav-settings").click();
  await phone.page.getByTestId("settings-screen").waitFor();

  expect(violations).toEqual([]);
  expect(phone.pageErrors).toEqual([]);
});
