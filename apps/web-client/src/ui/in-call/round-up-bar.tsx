import type { FleetTexts } from "@ringback/client/texts";
import type { AppController } from "../../app/controller/app-controller.js";
import type { RoundUpView } from "../../app/round-up/round-up-controller.js";

interface Props {
  readonly controller: AppController;
  readonly roundUpView: RoundUpView;
  readonly ft: FleetTexts;
  /** Answer: the reply box of a finished call comes up; a needs-you call's decision is already in reach. */
  readonly onAnswer: () => void;
}

/** Where the round-up is (its opening, or which call of how many), and Next, Skip and Answer. */
export function RoundUpBar({ controller, roundUpView, ft, onAnswer }: Props) {
  const { roundUp } = roundUpView;
  if (!roundUp) return null;
  const joined = roundUp.joined.at(-1);
  const joinedItem = joined === undefined ? undefined : roundUpView.items[joined];
  return (
    <div class="round-up-bar" data-testid="round-up-bar" data-position={roundUp.position}>
      <p class="round-up-position" data-testid="round-up-position">
        {roundUp.position < 0
          ? ft.roundUpOpening
          : ft.roundUpPosition(roundUp.position + 1, roundUp.eventIds.length)}
        {joinedItem && (
          <span data-testid="round-up-joined" data-event-id={joined}>
            {" · "}
            {ft.roundUpJoined(joinedItem.project)}
          </span>
        )}
      </p>
      <div class="round-up-buttons">
        <button
          type="button"
          data-testid="round-up-skip"
          onClick={() => controller.roundUp.dispatch({ type: "skip" })}
        >
          {ft.roundUpSkip}
        </button>
        <button
          type="button"
          data-testid="round-up-answer"
          onClick={() => {
            controller.roundUp.dispatch({ type: "answer" });
            onAnswer();
          }}
        >
          {ft.roundUpAnswer}
        </button>
        <button
          type="button"
          class="primary"
          data-testid="round-up-next"
          onClick={() => controller.roundUp.dispatch({ type: "next" })}
        >
          {ft.roundUpNext}
        </button>
      </div>
    </div>
  );
}
