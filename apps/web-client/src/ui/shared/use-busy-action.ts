import { useCallback, useState } from "preact/hooks";

/** What an action failed with, and which action it was; worded when shown, so it follows the interface language. */
export interface ActionFailure<Kind extends string> {
  readonly kind: Kind;
  readonly error: unknown;
}

interface BusyAction<Kind extends string> {
  /** The action running, or null when none is. */
  readonly busy: Kind | null;
  /** The last failure, until the next action starts; null before any and after a success. */
  readonly failure: ActionFailure<Kind> | null;
  /** Runs an action: clears the last failure, marks `kind` busy until it settles, keeps its failure. Never rejects. */
  readonly run: (kind: Kind, action: () => Promise<unknown>) => Promise<void>;
  /** Keeps a failure found outside `run`: a load, or a check made before the action. */
  readonly fail: (kind: Kind, error: unknown) => void;
}

/**
 * The busy and failure state every form keeps the same way: one action at a time shows as busy (its buttons say so),
 * and what it failed with is shown next to it.
 */
export function useBusyAction<Kind extends string>(): BusyAction<Kind> {
  const [busy, setBusy] = useState<Kind | null>(null);
  const [failure, setFailure] = useState<ActionFailure<Kind> | null>(null);
  const fail = useCallback((kind: Kind, error: unknown) => setFailure({ kind, error }), []);
  const run = useCallback(async (kind: Kind, action: () => Promise<unknown>) => {
    setBusy(kind);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure({ kind, error });
    } finally {
      setBusy(null);
    }
  }, []);
  return { busy, failure, run, fail };
}
