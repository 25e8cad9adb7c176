import type { BriefCard, TrackerQuestionTrigger } from "@ringback/protocol";
import { sentencesFor } from "./said-language.js";

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
  /** The brief language: the question is introduced in it when Ringback has its sentences (Chinese), else in English. */
  language?: string;
}

/** The question in words: the call's title, the paragraph read aloud, and the card with the question itself. */
export interface TrackerQuestionWords {
  title: string;
  spoken: string;
  card: BriefCard;
  /** The language of the words around the question (a BCP 47 tag), for the brief's meta and the voice. */
  language: string;
}

interface QuestionSentences {
  readonly someAgent: string;
  readonly asks: (agent: string, issue: string) => string;
  readonly movedToBlocked: (agent: string, issue: string) => string;
  readonly wroteNothing: string;
  readonly wrote: (question: string) => string;
  readonly lastComment: (question: string) => string;
  readonly replyPosted: string;
  readonly title: (agent: string, identifier: string) => string;
  readonly questionCard: string;
  readonly lastCommentCard: string;
  readonly none: string;
}

const SENTENCES: { en: QuestionSentences; zh: QuestionSentences } = {
  en: {
    someAgent: "The agent",
    asks: (agent, issue) => `${agent} asks you a question on ${issue}.`,
    movedToBlocked: (agent, issue) => `${agent} moved ${issue} to blocked: it needs you to go on.`,
    wroteNothing: "It wrote nothing with it.",
    wrote: (question) => `It wrote: ${question}`,
    lastComment: (question) => `Its last comment says: ${question}`,
    replyPosted: "Your reply will be posted as a comment on the issue.",
    title: (agent, identifier) => `${agent} needs you on ${identifier}`,
    questionCard: "The question",
    lastCommentCard: "Its last comment",
    none: "(none)",
  },
  zh: {
    someAgent: "智能体",
    asks: (agent, issue) => `${agent} 在 ${issue} 上向你提了一个问题。`,
    movedToBlocked: (agent, issue) => `${agent} 把 ${issue} 移到了受阻：它需要你才能继续。`,
    wroteNothing: "它没有留下任何说明。",
    wrote: (question) => `它写道：${question}`,
    lastComment: (question) => `它最后的评论是：${question}`,
    replyPosted: "你的回复会作为评论发布在这个事项上。",
    title: (agent, identifier) => `${agent} 在 ${identifier} 上需要你`,
    questionCard: "问题",
    lastCommentCard: "它最后的评论",
    none: "（无）",
  },
};

/** `[@Ada](mention://member/<id>)`: how the tracker writes a mention in a comment. */
const MENTION_LINK = /\[(@[^\]]*)\]\(mention:\/\/[a-z]+\/[^)\s]*\)/g;

/**
 * Says a tracker agent's question in plain words without a model: which agent, which issue, why it rings (a
 * mention or a move to blocked), and the question whole. Mention links are said as the name they show; nothing
 * else of the question is changed or shortened.
 */
export function describeTrackerQuestion(facts: TrackerQuestionFacts): TrackerQuestionWords {
  const { sentences: say, language } = sentencesFor(facts.language, SENTENCES);
  const agent = facts.agentName.trim() || say.someAgent;
  const issue = `${facts.issueIdentifier} "${facts.issueTitle}"`;
  const question = facts.question.trim().replace(MENTION_LINK, "$1");
  const opening = facts.trigger === "mention" ? say.asks(agent, issue) : say.movedToBlocked(agent, issue);
  const body =
    question === ""
      ? say.wroteNothing
      : facts.trigger === "mention"
        ? say.wrote(question)
        : say.lastComment(question);
  return {
    title: say.title(agent, facts.issueIdentifier),
    spoken: [opening, body, say.replyPosted].join("\n\n"),
    card: {
      title: facts.trigger === "mention" ? say.questionCard : say.lastCommentCard,
      body: question || say.none,
    },
    language,
  };
}
