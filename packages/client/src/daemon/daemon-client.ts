import type { E2eKey } from "@ringback/e2e-crypto";
import {
  type Attachment,
  type AwaySchedule,
  BriefLanguage,
  CallRules,
  type CreateDispatchRequest,
  type DispatchIssuesRequest,
  DispatchIssuesResponse,
  DispatchListResponse,
  type DispatchOptions,
  DispatchOptions as DispatchOptionsSchema,
  type DispatchRecord,
  DispatchResponse,
  DispatchStatusesResponse,
  EscalationSettingsResponse,
  EscalationTestResponse,
  type IssueReference,
  ListTrackerWorkspacesResponse,
  LlmSettingsResponse,
  type LlmTestRequest,
  LlmTestResponse,
  Presence,
  type PutEscalationSettingsRequest,
  type PutLlmSettingsRequest,
  RefreshIssuesResponse,
  RingbackError,
  type SettingsRequestPlaintext,
  TrackerSettingsResponse,
  type UploadRequest,
  UploadResponse,
} from "@ringback/protocol";
import { type ZodType, z } from "zod";
import { relayDaemonRequest } from "../relay/daemon-request.js";
import type { RelayClient } from "../relay/relay-client.js";
import { daemonAnswerError, daemonError, hasDaemonCode } from "./daemon-error.js";

/** `PUT /brief/language` answers the language as saved; older daemons may answer nothing. */
const PutBriefLanguageAnswer = z.unknown();

/**
 * The daemon's local interface, reached through the relay's settings relay: each call seals `{method, path, body}`
 * for the chosen computer, opens the sealed `{status, body}`, checks the body against the protocol schema, and
 * turns every failure into a `RingbackError` with the protocol's code (see `daemonError`).
 */
export class DaemonClient {
  constructor(
    private readonly relay: RelayClient,
    private readonly key: E2eKey,
    /** The computer's relay device id. */
    readonly computerId: string,
    /**
     * Follows the account's key rotations (`KeyRotator.catchUp`); the key now when it changed, else null. A computer
     * that cannot open a request may have moved to a key this device has not followed yet: it asks once more with it.
     */
    private readonly catchUpKey?: () => Promise<E2eKey | null>,
  ) {}

  async call<T>(request: SettingsRequestPlaintext, schema: ZodType<T>): Promise<T> {
    let answer: { status: number; body: unknown };
    try {
      answer = await this.#relayed(request);
    } catch (error) {
      throw daemonError(error);
    }
    if (answer.status < 200 || answer.status > 299) throw daemonAnswerError(answer.status, answer.body);
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) {
      throw new RingbackError(
        "internal_error",
        `The computer's answer to ${request.method} ${request.path} has an unexpected shape.`,
      );
    }
    return parsed.data;
  }

  async #relayed(request: SettingsRequestPlaintext): Promise<{ status: number; body: unknown }> {
    try {
      return await relayDaemonRequest(this.relay, this.key, this.computerId, request);
    } catch (error) {
      if (!this.catchUpKey || !hasDaemonCode(daemonError(error), "undecryptable_request")) throw error;
      const newer = await this.catchUpKey().catch(() => null);
      if (newer === null) throw error;
      return relayDaemonRequest(this.relay, newer, this.computerId, request);
    }
  }

  // Tracker settings -------------------------------------------------------------------------------------------

  trackerSettings() {
    return this.call({ method: "GET", path: "/tracker/settings" }, TrackerSettingsResponse);
  }

  /** Without a token the saved one is used ("change workspaces" needs no token). */
  trackerWorkspaces(token?: string) {
    return this.call(
      { method: "POST", path: "/tracker/workspaces", body: token ? { token } : {} },
      ListTrackerWorkspacesResponse,
    );
  }

  saveTrackerSettings(request: { token?: string; workspaceIds: string[] }) {
    return this.call({ method: "PUT", path: "/tracker/settings", body: request }, z.unknown());
  }

  deleteTrackerSettings() {
    return this.call({ method: "DELETE", path: "/tracker/settings" }, z.unknown());
  }

  refreshIssues(issues: IssueReference[]) {
    return this.call({ method: "POST", path: "/tracker/issues", body: { issues } }, RefreshIssuesResponse);
  }

  // Dispatch ---------------------------------------------------------------------------------------------------

  /** The first watched workspace's projects and agents, or another watched workspace's. */
  dispatchOptions(workspaceId?: string): Promise<DispatchOptions> {
    return workspaceId
      ? this.call(
          { method: "POST", path: "/tracker/dispatch/options", body: { workspaceId } },
          DispatchOptionsSchema,
        )
      : this.call({ method: "GET", path: "/tracker/dispatch/options" }, DispatchOptionsSchema);
  }

  dispatchIssues(request: DispatchIssuesRequest) {
    return this.call(
      { method: "POST", path: "/tracker/dispatch/issues", body: request },
      DispatchIssuesResponse,
    );
  }

  dispatchStatuses(workspaceId?: string) {
    return this.call(
      { method: "POST", path: "/tracker/dispatch/statuses", body: workspaceId ? { workspaceId } : {} },
      DispatchStatusesResponse,
    );
  }

  async upload(request: UploadRequest): Promise<Attachment> {
    return (await this.call({ method: "POST", path: "/tracker/uploads", body: request }, UploadResponse))
      .attachment;
  }

  async createDispatch(request: CreateDispatchRequest): Promise<DispatchRecord> {
    return (await this.call({ method: "POST", path: "/tracker/dispatches", body: request }, DispatchResponse))
      .dispatch;
  }

  async lookupDispatch(id: string): Promise<DispatchRecord> {
    return (
      await this.call({ method: "POST", path: "/tracker/dispatches/lookup", body: { id } }, DispatchResponse)
    ).dispatch;
  }

  async cancelDispatch(id: string): Promise<DispatchRecord> {
    return (
      await this.call({ method: "POST", path: "/tracker/dispatches/cancel", body: { id } }, DispatchResponse)
    ).dispatch;
  }

  async listDispatches(): Promise<DispatchRecord[]> {
    return (await this.call({ method: "GET", path: "/tracker/dispatches" }, DispatchListResponse)).dispatches;
  }

  // Language model and report language -------------------------------------------------------------------------

  async llmSettings() {
    return (await this.call({ method: "GET", path: "/llm/settings" }, LlmSettingsResponse)).channel;
  }

  async saveLlmSettings(request: PutLlmSettingsRequest) {
    return (await this.call({ method: "PUT", path: "/llm/settings", body: request }, LlmSettingsResponse))
      .channel;
  }

  async deleteLlmSettings() {
    return (await this.call({ method: "DELETE", path: "/llm/settings" }, LlmSettingsResponse)).channel;
  }

  /**
   * `POST /llm/test`: the computer makes the same structured call as a brief with `request` (without apiKey: its
   * saved key), or with its saved channel for `{}`, and saves nothing. A model that fails is an answer
   * (`ok: false`), not an error.
   */
  testLlm(request: LlmTestRequest = {}): Promise<LlmTestResponse> {
    return this.call({ method: "POST", path: "/llm/test", body: request }, LlmTestResponse);
  }

  // Escalation ladder -------------------------------------------------------------------------------------------

  /** `GET /escalation/settings`: the channels (secrets as hints), the schedule and the idle threshold. */
  escalationSettings(): Promise<EscalationSettingsResponse> {
    return this.call({ method: "GET", path: "/escalation/settings" }, EscalationSettingsResponse);
  }

  /** `PUT /escalation/settings`: the whole section; a channel's secret left out keeps the saved one. */
  saveEscalationSettings(request: PutEscalationSettingsRequest): Promise<EscalationSettingsResponse> {
    return this.call(
      { method: "PUT", path: "/escalation/settings", body: request },
      EscalationSettingsResponse,
    );
  }

  /** `POST /escalation/test`: every channel now, each with what its service answered. */
  testEscalation(): Promise<EscalationTestResponse> {
    return this.call({ method: "POST", path: "/escalation/test", body: {} }, EscalationTestResponse);
  }

  // Rules for finished calls ------------------------------------------------------------------------------------

  /** `GET /call-rules`: the gathering window, the choice per project and the quiet summary. */
  callRules(): Promise<CallRules> {
    return this.call({ method: "GET", path: "/call-rules" }, CallRules);
  }

  /** `PUT /call-rules`: all of them at once. */
  saveCallRules(rules: CallRules): Promise<CallRules> {
    return this.call({ method: "PUT", path: "/call-rules", body: rules }, CallRules);
  }

  // Presence ----------------------------------------------------------------------------------------------------

  /** `GET /presence`: whether the computer's agents wait for a phone when they ask permission (away). */
  presence(): Promise<Presence> {
    return this.call({ method: "GET", path: "/presence" }, Presence);
  }

  /** `PUT /presence`: "I'm away" on or off; answers the presence as saved. */
  setPresence(away: boolean): Promise<Presence> {
    return this.call({ method: "PUT", path: "/presence", body: { away } }, Presence);
  }

  /** `PUT /presence/schedule`: the away times this device's ring modes give the computer (null: none). */
  setAwaySchedule(schedule: AwaySchedule | null): Promise<Presence> {
    return this.call({ method: "PUT", path: "/presence/schedule", body: { schedule } }, Presence);
  }

  briefLanguage() {
    return this.call({ method: "GET", path: "/brief/language" }, BriefLanguage);
  }

  async putBriefLanguage(language: string): Promise<void> {
    await this.call({ method: "PUT", path: "/brief/language", body: { language } }, PutBriefLanguageAnswer);
  }
}
