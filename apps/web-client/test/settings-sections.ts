import type { Page } from "playwright-core";

/** The sections of Settings as the index names them (`settings-section-<name>`). */
export type SettingsSectionName = "ringing" | "language-voice" | "questions" | "computer" | "devices";

/** Opens Settings from the tab bar, then one of its sections from the index. */
export async function openSettingsSection(
  page: Page,
  section: SettingsSectionName,
  options: { timeout?: number } = {},
): Promise<void> {
  await page.getByTestId("nav-settings").click(options);
  await page.getByTestId(`settings-section-${section}`).click(options);
  await page.locator(`[data-testid="settings-screen"][data-section="${section}"]`).waitFor(options);
}
