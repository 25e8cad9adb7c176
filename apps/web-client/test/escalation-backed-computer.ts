import type { SettingsRequestPlaintext, SettingsResultPlaintext } from "@ringback/protocol";
import {
  type ChannelAccounts,
  type FakeEscalationChannels,
  makeTemporaryDirectory,
  startFakeEscalationChannels,
  type TemporaryDirectory,
} from "@ringback/test-kit";
import type { AppContext } from "../../daemon/src/app-context.js";
import { renderError } from "../../daemon/src/http/errors.js";
import { escalationRoutes } from "../../daemon/src/routes/escalation.js";
import { EscalationRuntime } from "../../daemon/src/runtime/escalation/escalation-runtime.js";
import { ConfigFile } from "../../daemon/src/runtime/files/config-file.js";

/**
 * The computer's escalation settings as the daemon itself answers them: its own routes (`GET/PUT
 * /escalation/settings`, `POST /escalation/test`), its daemon.json in a temporary directory, and its ladder test
 * against the channels' stand-ins. What the phone saved is read back from that daemon.json.
 */
export interface EscalationBackedComputer extends AsyncDisposable {
  readonly channels: FakeEscalationChannels;
  /** daemon.json's `escalation` section as the daemon saved it (secrets and all). */
  savedEscalation(): Promise<unknown>;
  /** Answers a relayed `/escalation/*` request; null for any other path. */
  answer(request: SettingsRequestPlaintext): Promise<SettingsResultPlaintext> | null;
}

export async function startEscalationBackedComputer(
  accounts: ChannelAccounts,
): Promise<EscalationBackedComputer> {
  const directory: TemporaryDirectory = await makeTemporaryDirectory();
  const channels = await startFakeEscalationChannels(accounts);
  const log = () => undefined;
  const config = await ConfigFile.load(directory.path, log);
  const escalation = new EscalationRuntime({
    config,
    env: {},
    endpoints: { pushover: channels.origin, telegram: channels.origin, twilio: channels.origin },
    log,
  });
  // The routes read only these three of the daemon's context; its own error handler words a refusal.
  const routes = escalationRoutes({ config, escalation, log } as unknown as AppContext).onError(
    renderError(log),
  );
  return {
    channels,
    savedEscalation: async () => (await ConfigFile.load(directory.path, log)).raw.escalation,
    answer(request) {
      if (!request.path.startsWith("/escalation/")) return null;
      const init: RequestInit = { method: request.method };
      if (request.body !== undefined) {
        init.body = JSON.stringify(request.body);
        init.headers = { "content-type": "application/json" };
      }
      return Promise.resolve(routes.request(request.path, init)).then(async (response) => ({
        status: response.status,
        body: await response.json(),
      }));
    },
    async [Symbol.asyncDispose]() {
      await channels[Symbol.asyncDispose]();
      await directory[Symbol.asyncDispose]();
    },
  };
}
