/** What of a Playwright page this takes: running a function in it (the kit does not depend on Playwright). */
interface ScriptablePage {
  evaluate<R>(pageFunction: () => Promise<R>): Promise<R>;
}

/**
 * Pastes two images into the dispatch words, as a clipboard would: a 3000 x 2000 PNG (the app converts it) and a
 * 320 x 240 JPEG (kept as it is).
 */
export function pasteTwoImages(page: ScriptablePage): Promise<void> {
  return page.evaluate(async () => {
    const draw = async (width: number, height: number, type: string) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext("2d");
      if (!context) throw new Error("no 2d context");
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, "#0f5132");
      gradient.addColorStop(1, "#d1e7dd");
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      context.fillStyle = "#b02a37";
      context.font = "120px sans-serif";
      context.fillText("Ringback", width / 10, height / 2);
      return canvas.convertToBlob({ type });
    };
    const transfer = new DataTransfer();
    transfer.items.add(
      new File([await draw(3000, 2000, "image/png")], "screenshot.png", { type: "image/png" }),
    );
    transfer.items.add(new File([await draw(320, 240, "image/jpeg")], "photo.jpg", { type: "image/jpeg" }));
    const words = document.querySelector('[data-testid="dispatch-words"]');
    if (!words) throw new Error("no dispatch words");
    words.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  });
}
