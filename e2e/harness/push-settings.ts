import type { TestPushService, TestSubscription } from "@ringback/test-kit";
import { type Device, UI_WAIT_MS } from "./device.ts";
import { injectPushService } from "./injected-push-service.ts";
import { relayPushPublicKey } from "./push-subscription.ts";

/**
 * Turns on ringing when the app is closed, as the person does in Settings: the test push service stands in for the
 * browser's (bound to the relay's VAPID key), the page reloads, and `push-on` subscribes and registers the
 * subscription at the relay. Resolves with the subscription once the page shows push as on.
 */
export async function turnPushOn(
  device: Device,
  pushService: TestPushService,
  relayUrl: string,
): Promise<TestSubscription> {
  const relayKey = await relayPushPublicKey(relayUrl);
  const subscription = pushService.subscribe(relayKey);
  await injectPushService(device.context, subscription, relayKey);
  await device.page.reload();
  await device.page.getByTestId("nav-settings").click({ timeout: UI_WAIT_MS });
  await device.page.getByTestId("settings-section-ringing").click({ timeout: UI_WAIT_MS });
  const pushSettings = device.page.getByTestId("push-settings");
  await pushSettings.getByTestId("push-on").click();
  await pushSettings.getByTestId("push-off").waitFor({ timeout: UI_WAIT_MS });
  return subscription;
}
