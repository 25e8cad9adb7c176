import type { ComputerTexts } from "@ringback/client/texts";
import { modelTimingLines, modelTimingView } from "@ringback/client/views";
import type { LlmTestTiming } from "@ringback/protocol";

/** The connection test's timing: speeds, the limits used, a typical and a long report, and what to change. */
export function TestTiming(props: {
  readonly timing: LlmTestTiming;
  readonly t: ComputerTexts;
  readonly onUseTimeout: (seconds: number) => void;
}) {
  const view = modelTimingView(props.timing);
  const lines = modelTimingLines(view, props.t);
  const advice = view.advice;
  return (
    <div class="test-timing" data-testid="computer-model-timing" data-advice={advice?.kind ?? "none"}>
      <p>{lines.speeds}</p>
      <p class="hint">{lines.limits}</p>
      <ul>
        {lines.reports.map((line, index) => (
          <li
            key={view.reports[index]?.report}
            data-testid="computer-model-report-time"
            data-fits={String(view.reports[index]?.fits)}
          >
            {line}
          </li>
        ))}
      </ul>
      {lines.advice && (
        <p class={advice ? "error" : "notice"} data-testid="computer-model-advice">
          {lines.advice}
        </p>
      )}
      {advice?.kind === "raise-timeout" && (
        <button
          type="button"
          data-testid="use-suggested-timeout"
          onClick={() => props.onUseTimeout(advice.suggestedSeconds)}
        >
          {props.t.useSuggestedTimeout(String(advice.suggestedSeconds))}
        </button>
      )}
    </div>
  );
}
