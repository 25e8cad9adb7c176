import {
  type Attachment,
  type CreateDispatchRequest,
  type DispatchIssuesRequest,
  type DispatchOptions,
  type DispatchRecord,
  RingbackError,
  type UploadRequest,
} from "@ringback/protocol";
import { dispatchRecord } from "@ringback/test-kit";
import type { RingSound } from "../src/audio/ring-sound.js";
import type { Ringer } from "../src/audio/ringer.js";
import type { DispatchClient, DispatchDaemon } from "../src/dispatch/dispatch-daemon.js";
import type { PreparedImage } from "../src/dispatch/prepared-image.js";

const OPTIONS: DispatchOptions = {
  workspaceId: "ws1",
  projects: [
    { id: "p1", name: "Website" },
    { id: "p2", name: "Billing" },
  ],
  agents: [
    { id: "a-off", name: "Codex", online: false },
    { id: "a1", name: "Claude", online: true },
    { id: "a2", name: "Gemini", online: true },
  ],
};

/**
 * The chosen computer's daemon, in memory: what the relay says of the computer, the options it answers, and every
 * request it received. Errors are RingbackErrors with the protocol's codes, as the real DaemonClient throws them.
 */
export class FakeDispatchDaemon implements DispatchDaemon {
  computerState: { online: boolean } | null = { online: true };
  /** Makes the relayed requests fail with this code (e.g. computer_offline). */
  refusal: RingbackError | null = null;
  options: DispatchOptions = OPTIONS;
  watched: string[] = ["ws1"];
  lookups: DispatchRecord[] = [];
  readonly calls: { name: string; body?: unknown }[] = [];

  async computer() {
    return this.computerState;
  }

  async client(): Promise<DispatchClient> {
    return this.#client;
  }

  async watchedWorkspaces() {
    return this.watched;
  }

  named(name: string): unknown[] {
    return this.calls.filter((call) => call.name === name).map((call) => call.body);
  }

  #record<T>(name: string, body: unknown, answer: () => T): Promise<T> {
    this.calls.push({ name, body });
    if (this.refusal) return Promise.reject(this.refusal);
    try {
      return Promise.resolve(answer());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  readonly #client: DispatchClient = {
    dispatchOptions: (workspaceId?: string) =>
      this.#record("options", workspaceId, () => ({ ...this.options, workspaceId: workspaceId ?? "ws1" })),
    dispatchIssues: (request: DispatchIssuesRequest) =>
      this.#record("issues", request, () => ({
        issues: [
          {
            id: "i12",
            number: 12,
            identifier: "RING-12",
            title: "Fix login",
            status: "todo",
            priority: "high",
            updatedAt: "2026-03-02T10:00:00.000Z",
          },
        ],
      })),
    dispatchStatuses: (workspaceId?: string) =>
      this.#record("statuses", workspaceId, () => ({
        statuses: [
          { key: "todo", name: "Todo" },
          { key: "done", name: "Done" },
        ],
      })),
    upload: (request: UploadRequest) =>
      this.#record(
        "upload",
        request,
        (): Attachment => ({
          id: `att-${request.name}`,
          filename: request.name,
          markdownUrl: `https://files/${request.name}`,
        }),
      ),
    createDispatch: (request: CreateDispatchRequest) =>
      this.#record("create", request, () =>
        "issueId" in request
          ? dispatchRecord({ id: "c1", kind: "comment", state: "created", issueId: request.issueId })
          : dispatchRecord({ images: request.attachments.length, prompt: request.prompt }),
      ),
    lookupDispatch: (id: string) =>
      this.#record("lookup", id, () => this.lookups.shift() ?? dispatchRecord({ id })),
    cancelDispatch: (id: string) =>
      this.#record("cancel", id, () => dispatchRecord({ id, state: "creating" })),
    listDispatches: () => this.#record("list", undefined, () => [dispatchRecord()]),
    trackerWorkspaces: () =>
      this.#record("workspaces", undefined, () => ({
        workspaces: this.watched.map((id) => ({ id, name: `Name of ${id}`, slug: id })),
      })),
  } as DispatchClient;
}

export function refusedWith(code: "computer_offline" | "computer_timeout" | "tracker_not_configured") {
  return new RingbackError(code);
}

/** A ringer that records what it was asked to play. */
export class RecordingRinger implements Ringer {
  readonly isSoundBlocked = false;
  playing: RingSound | null = null;
  starts = 0;

  async unlock() {
    return true;
  }

  start(sound: RingSound) {
    this.playing = sound;
    this.starts += 1;
  }

  stop() {
    this.playing = null;
  }
}

/** A prepared image as the page would upload it. */
export function preparedImage(name: string, change: Partial<PreparedImage> = {}): PreparedImage {
  return {
    name,
    type: "image/png",
    bytes: 3,
    data: "AAEC",
    isConverted: false,
    blob: new Blob([]),
    ...change,
  };
}

export function imageFile(name: string, type = "image/png"): File {
  return new File([new Uint8Array([0, 1, 2])], name, { type });
}
