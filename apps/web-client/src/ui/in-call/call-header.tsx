import type { BriefScript, CallRecord } from "@ringback/client";
import type { InCallTexts } from "@ringback/client/texts";

interface Props {
  readonly caller: string;
  readonly script: BriefScript;
  readonly record: CallRecord;
  readonly it: InCallTexts;
}

/** Who is calling and the brief's title; without a brief, that the agent's report is read and why there is none. */
export function CallHeader({ caller, script, record, it }: Props) {
  const noBriefReason = record.payload.brief.meta.error;
  return (
    <header class="call-header">
      <p class="caller">{caller}</p>
      {script.isBriefFailed ? (
        <>
          <h1>{it.agentReport}</h1>
          <p class="hint" data-testid="no-brief">
            {noBriefReason ? it.noBriefBecause(noBriefReason) : it.noBrief}
          </p>
        </>
      ) : (
        <h1>{script.title}</h1>
      )}
    </header>
  );
}
