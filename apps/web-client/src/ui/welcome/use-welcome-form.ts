import type { CoreTexts, InterfaceLanguage } from "@ringback/client/texts";
import type { RelaySetup } from "@ringback/protocol";
import { useState } from "preact/hooks";
import type { DevicePairing } from "../../app/pairing/device-pairing.js";
import { type ActionFailure, useBusyAction } from "../shared/use-busy-action.js";
import { useRelaySetup } from "./use-relay-setup.js";
import {
  initialWelcomeFields,
  WELCOME_ACTIONS,
  type WelcomeField,
  type WelcomeFields,
  type WelcomeForm,
} from "./welcome-fields.js";

/** The welcome page's state: the fields, the relay's setup, which form is joining and which failed. */
export interface WelcomeFormState {
  readonly fields: WelcomeFields;
  readonly setField: (name: WelcomeField, value: string) => void;
  readonly setup: RelaySetup | null;
  readonly busy: WelcomeForm | null;
  readonly failure: ActionFailure<WelcomeForm> | null;
  /** The submit handler of a form: pairs this device that way. */
  readonly submit: (form: WelcomeForm) => (event: Event) => void;
}

export function useWelcomeForm(pairing: DevicePairing, pairingLink: string | null): WelcomeFormState {
  const [fields, setFields] = useState(() => initialWelcomeFields(pairing, pairingLink));
  const setup = useRelaySetup(pairing, fields.serverUrl);
  const { busy, failure, run } = useBusyAction<WelcomeForm>();
  return {
    fields,
    setField: (name, value) => setFields((current) => ({ ...current, [name]: value })),
    setup,
    busy,
    failure,
    submit: (form) => (event) => {
      event.preventDefault();
      run(form, () => WELCOME_ACTIONS[form](pairing, fields)).catch(() => undefined);
    },
  };
}

/** What each of the welcome page's forms is drawn from. */
export interface WelcomeFormProps {
  readonly state: WelcomeFormState;
  readonly t: CoreTexts;
  readonly language: InterfaceLanguage;
}
