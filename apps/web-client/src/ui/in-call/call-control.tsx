import { Icon, type IconName } from "../shared/icon.js";

interface Props {
  readonly icon: IconName;
  readonly label: string;
  readonly testId: string;
  /** A toggle's state (the speaker); undefined for a plain button. */
  readonly isPressed?: boolean;
  readonly className?: string;
  readonly onClick: () => void;
}

/** One of the call's round buttons, its label under it, as a phone's in-call screen has them. */
export function CallControl({ icon, label, testId, isPressed, className, onClick }: Props) {
  return (
    <button
      type="button"
      class={className ? `call-control ${className}` : "call-control"}
      data-testid={testId}
      aria-pressed={isPressed}
      onClick={onClick}
    >
      <span class="disc">
        <Icon name={icon} />
      </span>
      {label}
    </button>
  );
}
