import { type LlmChannelPublic, PutLlmSettingsRequest, type StructuredOutput } from "@ringback/protocol";
import { type ComputerProblem, formProblem } from "./computer-problem.js";

/** Settings › Language model for briefs, as typed: the key is write-only and never filled in. */
export interface ComputerModelForm {
  readonly baseUrl: string;
  readonly model: string;
  /** Empty keeps the key saved on the computer. */
  readonly apiKey: string;
  readonly structuredOutput: StructuredOutput;
}

/** The form as it opens: the saved address, model and structured output; never a key. */
export function computerModelForm(saved: LlmChannelPublic | null): ComputerModelForm {
  return {
    baseUrl: saved?.baseUrl ?? "",
    model: saved?.model ?? "",
    apiKey: "",
    structuredOutput: saved?.structuredOutput ?? "json_schema",
  };
}

/**
 * The `PUT /llm/settings` body the form stands for, or the problem that keeps it from being sent: no address or
 * model, an address that is not http(s), or no key while none is saved on the computer.
 */
export function computerModelRequest(
  form: ComputerModelForm,
  saved: LlmChannelPublic | null,
): { request: PutLlmSettingsRequest } | { problem: ComputerProblem } {
  const baseUrl = form.baseUrl.trim();
  const model = form.model.trim();
  const apiKey = form.apiKey.trim();
  if (baseUrl === "" || model === "") return { problem: formProblem("model-incomplete") };
  if (apiKey === "" && !saved) return { problem: formProblem("llm-key-required") };
  const parsed = PutLlmSettingsRequest.safeParse({
    baseUrl,
    model,
    structuredOutput: form.structuredOutput,
    ...(apiKey === "" ? {} : { apiKey }),
  });
  if (!parsed.success) return { problem: formProblem("model-address") };
  return { request: parsed.data };
}
