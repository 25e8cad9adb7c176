/**
 * A speech recogniser for the page, as Chromium's would be with a microphone: once started it hears `heard`, reports
 * it and ends, and keeps the language it listened in as `window.ringbackListenedIn`. Headless Chromium has no
 * microphone and no speech service. Passed to `addInitScript` (it runs in the page, so it uses nothing outside itself).
 */
export function installSpeechRecognition(heard: string): void {
  class HeardRecognition {
    lang = "";
    continuous = false;
    interimResults = false;
    maxAlternatives = 1;
    onresult: ((event: { results: { transcript: string }[][] }) => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    onend: (() => void) | null = null;
    start(): void {
      (window as unknown as { ringbackListenedIn?: string }).ringbackListenedIn = this.lang;
      queueMicrotask(() => {
        this.onresult?.({ results: [[{ transcript: heard }]] });
        this.onend?.();
      });
    }
    stop(): void {
      this.onend?.();
    }
    abort(): void {
      this.onend?.();
    }
  }
  Object.defineProperty(window, "SpeechRecognition", { value: HeardRecognition, configurable: true });
}
