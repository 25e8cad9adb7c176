import { join } from "node:path";
import { TrackerQuestion } from "@ringback/protocol";
import { z } from "zod";
import { BoundedRecordFile } from "../files/bounded-record-file.js";
import type { Logger } from "../logger.js";

/** `{data_dir}/tracker-questions.json`: the tracker questions this computer rang about, by event id. */
const TRACKER_QUESTIONS_FILE = "tracker-questions.json";
/** Questions remembered, newest kept; a reply to an older one cannot find its issue. */
const TRACKER_QUESTIONS_KEPT = 1000;

export const TrackerQuestionRecord = TrackerQuestion.extend({
  workspaceId: z.string(),
  issueId: z.string(),
  issueIdentifier: z.string(),
  issueTitle: z.string(),
  agentName: z.string(),
});
export type TrackerQuestionRecord = z.infer<typeof TrackerQuestionRecord>;

/**
 * eventId -> the tracker question behind a call. The outbox keeps only the report; the question's brief (made
 * without a model), its sealed `trackerQuestion` and the comment a reply becomes are read from here.
 */
export class TrackerQuestions {
  readonly #file: BoundedRecordFile<TrackerQuestionRecord>;

  private constructor(file: BoundedRecordFile<TrackerQuestionRecord>) {
    this.#file = file;
  }

  static async load(dataDir: string, log: Logger): Promise<TrackerQuestions> {
    const file = await BoundedRecordFile.load({
      path: join(dataDir, TRACKER_QUESTIONS_FILE),
      field: "questions",
      record: TrackerQuestionRecord,
      kept: TRACKER_QUESTIONS_KEPT,
      log,
      unreadableMessage:
        "calls about tracker questions rung before now are briefed by the model and their replies fail",
    });
    return new TrackerQuestions(file);
  }

  get(eventId: string): Readonly<TrackerQuestionRecord> | undefined {
    return this.#file.get(eventId);
  }

  /** Remembers the question and waits until it is on disk, so a report of it never goes out without it. */
  async remember(eventId: string, record: TrackerQuestionRecord): Promise<void> {
    this.#file.set(eventId, record);
    await this.#file.flush();
  }

  flush(): Promise<void> {
    return this.#file.flush();
  }
}

/** The part of a question the call's sealed payload carries. */
export function sealedQuestion(record: TrackerQuestionRecord): TrackerQuestion {
  return { trigger: record.trigger, question: record.question, commentId: record.commentId };
}
