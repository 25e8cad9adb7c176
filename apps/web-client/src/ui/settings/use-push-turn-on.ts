import { useState } from "preact/hooks";
import {
  type EnablePushStep,
  PushEnableError,
  type PushEnableProblem,
  type PushSubscriber,
} from "../../app/push/push-subscriber.js";

/** Why turning on did not end subscribed, kept as facts and worded when shown (it follows the language). */
export type TurnOnFailure =
  | { readonly kind: "problem"; readonly problem: PushEnableProblem; readonly detail: string | null }
  | { readonly kind: "no-service-worker" }
  | { readonly kind: "error"; readonly error: unknown };

interface PushTurnOn {
  /** The step turning on is at, or null when it is not running. */
  readonly step: EnablePushStep | null;
  readonly failure: TurnOnFailure | null;
  readonly turnOn: (repeatSeconds: number) => Promise<void>;
  readonly clearFailure: () => void;
}

/** Turning Web Push on, step by step, and why it failed; `settled` runs after it, whatever the outcome. */
export function usePushTurnOn(subscriber: PushSubscriber | null, settled: () => void): PushTurnOn {
  const [step, setStep] = useState<EnablePushStep | null>(null);
  const [failure, setFailure] = useState<TurnOnFailure | null>(null);
  const turnOn = async (repeatSeconds: number) => {
    if (!subscriber) return;
    setFailure(null);
    setStep("asking-permission");
    try {
      const outcome = await subscriber.enable(repeatSeconds, setStep);
      if (outcome === "no-service-worker") setFailure({ kind: "no-service-worker" });
    } catch (caught) {
      setFailure(
        caught instanceof PushEnableError
          ? { kind: "problem", problem: caught.problem, detail: caught.detail }
          : { kind: "error", error: caught },
      );
    } finally {
      setStep(null);
      settled();
    }
  };
  return { step, failure, turnOn, clearFailure: () => setFailure(null) };
}
