import { QuestionChannel } from "../storage/local-settings.js";

export interface QuestionChannelForm {
  readonly baseUrl: string;
  readonly model: string;
  /** Empty keeps the saved key. */
  readonly apiKey: string;
}

/** The form as it opens: the saved address and model; the key is never shown again. */
export function channelForm(saved: QuestionChannel | null): QuestionChannelForm {
  return { baseUrl: saved?.baseUrl ?? "", model: saved?.model ?? "", apiKey: "" };
}

/** The channel the form saves, or null when it is incomplete (an address that is not http(s), no model, no key). */
export function channelFromForm(
  form: QuestionChannelForm,
  saved: QuestionChannel | null,
): QuestionChannel | null {
  const parsed = QuestionChannel.safeParse({
    baseUrl: form.baseUrl.trim(),
    model: form.model.trim(),
    apiKey: form.apiKey.trim() || saved?.apiKey || "",
  });
  return parsed.success ? parsed.data : null;
}
