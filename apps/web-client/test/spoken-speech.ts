/**
 * Replaces the page's speech synthesis with one that keeps every text it is given in `window.ringbackSpoken` and
 * finishes each at once, as a voice that read it would: what the app's speech path says, without a speech engine.
 * Passed to `addInitScript` (it runs in the page, so it uses nothing outside itself).
 */
export function installSpeechCapture(): void {
  const spoken: string[] = [];
  (window as unknown as { ringbackSpoken: string[] }).ringbackSpoken = spoken;
  const synthesis = window.speechSynthesis;
  if (!synthesis) return;
  synthesis.speak = (utterance: SpeechSynthesisUtterance) => {
    spoken.push(utterance.text);
    setTimeout(() => utterance.onend?.(new Event("end") as SpeechSynthesisEvent), 10);
  };
  synthesis.cancel = () => undefined;
}
