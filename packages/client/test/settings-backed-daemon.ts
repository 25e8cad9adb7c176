import { testConnection } from "@ringback/brief";
import type { FakeMultica } from "@ringback/fake-multica";
import {
  CallRules,
  ERROR_STATUS,
  type ErrorCode,
  errorBody,
  isRingbackError,
  ListTrackerWorkspacesRequest,
  type LlmChannel,
  type LlmChannelPublic,
  LlmTestRequest,
  type LlmTestResponse,
  PutLlmSettingsRequest,
  PutTrackerSettingsRequest,
  RingbackError,
  type SettingsRequestPlaintext,
  type SettingsResultPlaintext,
  secretHint,
  type TrackerSettingsResponse,
} from "@ringback/protocol";
import { createTrackerClient } from "@ringback/tracker-client";
import type { ZodType } from "zod";
import type { StandInDaemon } from "./stand-in-computer.js";

/** The tracker account Settings › Tracker is tried with: a simulator user and its workspaces Ringback and Docs. */
export function trackerAccount(fake: FakeMultica): {
  token: string;
  workspaceIds: { ring: string; docs: string };
} {
  const user = fake.state.addUser();
  return {
    token: user.token,
    workspaceIds: {
      ring: fake.state.addWorkspace({ name: "Ringback", slug: "ring", members: [user.id] }).id,
      docs: fake.state.addWorkspace({ name: "Docs", slug: "docs", members: [user.id] }).id,
    },
  };
}

/** What the stand-in daemon keeps, as daemon.json would: the secrets stay here and only their hints go out. */
export interface SettingsBackedState {
  token: string | null;
  workspaces: string[];
  llm: LlmChannel | null;
  /** The rules for finished calls, as `GET/PUT /call-rules` keep them. */
  callRules: CallRules;
}

/**
 * The daemon's settings interface for a browser or unit test: tracker settings checked against the tracker (the
 * simulator in `fakes/multica`) through `@ringback/tracker-client`, as the daemon's `TrackerSettings` does (list
 * with the given or saved token, workspaces validated before saving), the language-model channel with the daemon's
 * key rules and its connection test (`@ringback/brief`'s `testConnection` against whatever address is tested, a
 * fake model the test starts), and the brief language. First install: no token, no channel.
 */
export function settingsBackedDaemon(options: { trackerUrl: string }): {
  daemon: StandInDaemon;
  state: SettingsBackedState;
} {
  const state: SettingsBackedState = {
    token: null,
    workspaces: [],
    llm: null,
    callRules: CallRules.parse({}),
  };

  const listWorkspaces = async (token: string | undefined) => {
    const used = token ?? state.token;
    if (!used) throw new RingbackError("tracker_not_configured");
    const client = createTrackerClient({ token: used, baseUrl: options.trackerUrl, log: () => undefined });
    return (await client.listWorkspaces()).map(({ id, name, slug }) => ({ id, name, slug }));
  };

  const trackerSettings = (): TrackerSettingsResponse => ({
    settings: state.token ? { workspaces: [...state.workspaces], tokenHint: secretHint(state.token) } : null,
    status: {
      workspaces: state.workspaces.map((workspaceId) => ({
        workspaceId,
        state: "connected" as const,
        error: null,
        connectedAt: new Date(0).toISOString(),
      })),
    },
  });

  const publicChannel = (): { channel: LlmChannelPublic | null } => {
    const llm = state.llm;
    return {
      channel: llm
        ? {
            baseUrl: llm.baseUrl,
            model: llm.model,
            keyHint: secretHint(llm.apiKey),
            structuredOutput: llm.structuredOutput,
            ...(llm.timeoutMs === undefined ? {} : { timeoutMs: llm.timeoutMs }),
            ...(llm.noProgressTimeoutMs === undefined
              ? {}
              : { noProgressTimeoutMs: llm.noProgressTimeoutMs }),
            ...(llm.maxOutputTokens === undefined ? {} : { maxOutputTokens: llm.maxOutputTokens }),
          }
        : null,
    };
  };

  /** `POST /llm/test` as the daemon answers it: the given channel (without apiKey: the saved key) or the saved one. */
  const testLlm = async (body: unknown): Promise<LlmTestResponse> => {
    const request = parse(LlmTestRequest, body, "invalid_llm_settings");
    const given = "baseUrl" in request ? (request as PutLlmSettingsRequest) : null;
    const apiKey = given ? (given.apiKey ?? state.llm?.apiKey) : state.llm?.apiKey;
    if (!apiKey) throw new RingbackError("llm_key_required");
    // A limit given as null is the default and one left out the saved one, as on the computer.
    const channel: LlmChannel = given
      ? {
          ...given,
          apiKey,
          structuredOutput: given.structuredOutput ?? "json_schema",
          timeoutMs: given.timeoutMs === undefined ? state.llm?.timeoutMs : (given.timeoutMs ?? undefined),
          noProgressTimeoutMs:
            given.noProgressTimeoutMs === undefined
              ? state.llm?.noProgressTimeoutMs
              : (given.noProgressTimeoutMs ?? undefined),
          maxOutputTokens:
            given.maxOutputTokens === undefined
              ? state.llm?.maxOutputTokens
              : (given.maxOutputTokens ?? undefined),
        }
      : { ...(state.llm as LlmChannel) };
    const startedAt = performance.now();
    const result = await testConnection({ channel });
    return result.ok
      ? {
          ok: true,
          model: result.model,
          latencyMs: Math.round(performance.now() - startedAt),
          ...(result.timing ? { timing: result.timing } : {}),
        }
      : { ok: false, error: { code: "llm_call_failed", message: result.error ?? "No brief." } };
  };

  const answer = async (request: SettingsRequestPlaintext): Promise<unknown> => {
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case "GET /tracker/settings":
        return trackerSettings();
      case "POST /tracker/workspaces":
        return { workspaces: await listWorkspaces(parse(ListTrackerWorkspacesRequest, request.body).token) };
      case "PUT /tracker/settings": {
        const body = parse(PutTrackerSettingsRequest, request.body);
        const token = body.token ?? state.token;
        if (!token) throw new RingbackError("tracker_not_configured");
        const available = await listWorkspaces(token);
        const unknown = body.workspaceIds.find((id) => !available.some((workspace) => workspace.id === id));
        if (unknown !== undefined) throw new RingbackError("workspace_not_found");
        Object.assign(state, { token, workspaces: [...new Set(body.workspaceIds)] });
        return trackerSettings();
      }
      case "DELETE /tracker/settings":
        Object.assign(state, { token: null, workspaces: [] });
        return trackerSettings();
      case "GET /llm/settings":
        return publicChannel();
      case "PUT /llm/settings": {
        const body = parse(PutLlmSettingsRequest, request.body, "invalid_llm_settings");
        const apiKey = body.apiKey ?? state.llm?.apiKey;
        if (!apiKey) throw new RingbackError("llm_key_required");
        // A limit (or the output cap) left out keeps the saved one; null is back to the endpoint kind's default, as on the computer.
        const timeoutMs = body.timeoutMs === undefined ? state.llm?.timeoutMs : (body.timeoutMs ?? undefined);
        const noProgressTimeoutMs =
          body.noProgressTimeoutMs === undefined
            ? state.llm?.noProgressTimeoutMs
            : (body.noProgressTimeoutMs ?? undefined);
        const maxOutputTokens =
          body.maxOutputTokens === undefined
            ? state.llm?.maxOutputTokens
            : (body.maxOutputTokens ?? undefined);
        state.llm = {
          baseUrl: body.baseUrl,
          model: body.model,
          apiKey,
          structuredOutput: body.structuredOutput ?? "json_schema",
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(noProgressTimeoutMs === undefined ? {} : { noProgressTimeoutMs }),
          ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
        };
        return publicChannel();
      }
      case "POST /llm/test":
        return testLlm(request.body);
      case "DELETE /llm/settings":
        state.llm = null;
        return publicChannel();
      case "GET /call-rules":
        return state.callRules;
      case "PUT /call-rules":
        state.callRules = parse(CallRules, request.body);
        return state.callRules;
      case "GET /brief/language":
      case "PUT /brief/language":
        return { language: "en-US", source: "app" };
      default:
        throw new RingbackError("not_found", `${route} is not served here`);
    }
  };

  const daemon: StandInDaemon = async (request): Promise<SettingsResultPlaintext> => {
    try {
      return { status: 200, body: await answer(request) };
    } catch (error) {
      const code: ErrorCode = isRingbackError(error) ? error.code : "internal_error";
      return { status: ERROR_STATUS[code], body: errorBody(code, (error as Error).message) };
    }
  };
  return { daemon, state };
}

function parse<T>(schema: ZodType<T>, body: unknown, code: ErrorCode = "invalid_request"): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new RingbackError(code);
  return parsed.data;
}
