import type { ComputerTexts } from "@ringback/client/texts";
import type { LlmTestResponse } from "@ringback/protocol";
import { TestTiming } from "./model-test-timing.js";

interface Props {
  readonly result: LlmTestResponse;
  readonly t: ComputerTexts;
  readonly onUseTimeout: (seconds: number) => void;
}

/** What the computer's connection test found: the model works (and how fast against the limits) or why it fails. */
export function ModelTestResult({ result, t, onUseTimeout }: Props) {
  return (
    <>
      <p
        class={result.ok ? "notice" : "error"}
        data-testid="computer-model-test-result"
        data-ok={String(result.ok)}
      >
        {result.ok ? t.modelWorks(result.model, result.latencyMs) : t.modelFails(result.error.message)}
      </p>
      {result.ok && result.timing && <TestTiming timing={result.timing} t={t} onUseTimeout={onUseTimeout} />}
    </>
  );
}
