import type { BriefCard, TrackerQuestionTrigger } from "@ringback/protocol";

/** What the daemon knows of a tracker agent's question when it rings. */
export interface TrackerQuestionFacts {
  trigger: TrackerQuestionTrigger;
  /** The agent's name in the tracker; empty when unknown. */
  agentName: string;
  /** `RING-12`. */
  issueIdentifier: string;
  issueTitle: string;
  /** The agent's words, whole; empty when it moved the issue to blocked without writing any. */
  question: string;
  /** The brief language; the question is said in English whatever it is, for now. */
  language?: string;
}

/** The question in words: the call's title, the paragraph read aloud, and the card with the question itself. */
export interface TrackerQuestionWords {
  title: string;
  spoken: string;
  card: BriefCard;
}

/** `[@Ada](mention://member/<id>)`: how the tracker writes a mention in a comment. */
const MENTION_LINK = /\[(@[^\]]*)\]\(mention:\/\/[a-z]+\/[^)\s]*\)/g;

/**
 * Says a tracker agent's question in plain words without a model: which agent, which issue, why it rings (a
 * mention or a move to blocked), and the question whole. Mention links are said as the name they show; nothing
 * else of the question is changed or shortened.
 */
export function describeTrackerQuestion(facts: TrackerQuestionFacts): TrackerQuestionWords {
  const agent = facts.agentName.trim() || "The agent";
  const issue = `${facts.issueIdentifier} "${facts.issueTitle}"`;
  const question = facts.question.trim().replace(MENTION_LINK, "$1");
  const opening =
    facts.trigger === "mention"
      ? `${agent} asks you a question on ${issue}.`
      : `${agent} moved ${issue} to blocked: it needs you to go on.`;
  const body =
    question === ""
      ? "It wrote nothing with it."
      : facts.trigger === "mention"
        ? `It wrote: ${question}`
        : `Its last comment says: ${question}`;
  const reply = "Your reply will be posted as a comment on the issue.";
  return {
    title: `${agent} needs you on ${facts.issueIdentifier}`,
    spoken: [opening, body, reply].join("\n\n"),
    card: {
      title: facts.trigger === "mention" ? "The question" : "Its last comment",
      body: question || "(none)",
    },
  };
}
