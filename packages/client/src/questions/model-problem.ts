import { ClientError } from "../errors/client-error.js";
import { PROBLEM_TEXTS, type ProblemTexts } from "../i18n/texts/problems.js";

/**
 * Why the device's language model gave no answer (or no list of models): a kind and its facts, plain data (a view
 * or a record can keep it), turned into a sentence in the interface language only when shown. `detail` is the
 * provider's own words, kept as it wrote them.
 */
export type ModelProblem =
  | { readonly kind: "unreachable"; readonly address: string }
  | { readonly kind: "status"; readonly status: number; readonly detail: string | null }
  | { readonly kind: "no-content" }
  | { readonly kind: "no-body" }
  | { readonly kind: "stream-not-json" }
  | { readonly kind: "failed-mid-answer"; readonly detail: string | null }
  | { readonly kind: "answer-cut-off" }
  | { readonly kind: "not-a-model-list" }
  /** Not the model's: an error from elsewhere, shown as it came. */
  | { readonly kind: "other"; readonly detail: string };

/**
 * The model's answer or stream failed; `problem` says why and with what facts, `code` is its kind. The message is the
 * English sentence, for logs.
 */
export class ModelAnswerError extends ClientError<ModelProblem["kind"]> {
  override readonly name = "ModelAnswerError";
  constructor(
    readonly problem: ModelProblem,
    options?: ErrorOptions,
  ) {
    super(problem.kind, modelProblemText(problem, PROBLEM_TEXTS.en), options);
  }
}

/** Characters of a provider's own error text kept. */
export const PROVIDER_DETAIL_MAX_CHARS = 200;
/** A key this short could be an ordinary word of the provider's text; blanking it would garble the text. */
const KEY_BLANKED_FROM_CHARS = 8;

function providerMessage(parsed: unknown): string | null {
  if (typeof parsed !== "object" || parsed === null) return null;
  const { error, message } = parsed as { error?: unknown; message?: unknown };
  const inner =
    typeof error === "object" && error !== null ? (error as { message?: unknown }).message : error;
  if (typeof inner === "string") return inner;
  return typeof message === "string" ? message : null;
}

/**
 * The provider's own words in an error body: OpenAI's `error.message` (or a bare `error` or `message` string), else
 * the body's text; spaces collapsed, cut to `PROVIDER_DETAIL_MAX_CHARS`, and the key blanked should a provider echo it.
 */
export function providerDetail(body: string, apiKey = ""): string | null {
  let said = body;
  try {
    said = providerMessage(JSON.parse(body)) ?? body;
  } catch {
    // Not JSON: the text itself (a proxy's page, a plain sentence).
  }
  if (apiKey.length >= KEY_BLANKED_FROM_CHARS) said = said.replaceAll(apiKey, "…");
  const collapsed = said.replace(/\s+/g, " ").trim().slice(0, PROVIDER_DETAIL_MAX_CHARS);
  return collapsed === "" ? null : collapsed;
}

/** A model's answer that is not 2xx, with what the provider said about it. */
export async function statusProblem(response: Response, apiKey = ""): Promise<ModelProblem> {
  const body = await response.text().catch(() => "");
  return { kind: "status", status: response.status, detail: providerDetail(body, apiKey) };
}

/** The problem a failed question or model list stands for. */
export function modelProblemOf(error: unknown): ModelProblem {
  if (error instanceof ModelAnswerError) return error.problem;
  return { kind: "other", detail: error instanceof Error ? error.message : String(error) };
}

/** The sentence for a problem, in the interface language's texts. */
export function modelProblemText(problem: ModelProblem, t: ProblemTexts): string {
  switch (problem.kind) {
    case "unreachable":
      return t.modelUnreachable(problem.address);
    case "status":
      return problem.detail === null
        ? t.modelStatus(problem.status)
        : t.modelStatusSaid(problem.status, problem.detail);
    case "no-content":
      return t.modelNoContent;
    case "no-body":
      return t.modelNoBody;
    case "stream-not-json":
      return t.modelStreamNotJson;
    case "failed-mid-answer":
      return problem.detail === null ? t.modelFailedMidAnswer : t.modelFailedMidAnswerSaid(problem.detail);
    case "answer-cut-off":
      return t.modelAnswerCutOff;
    case "not-a-model-list":
      return t.modelNotAModelList;
    case "other":
      return problem.detail;
  }
}
