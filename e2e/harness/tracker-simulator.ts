import { type DemoSeed, type FakeMultica, seedDemo, startFakeMultica } from "@ringback/fake-multica";
import { type PutTrackerSettingsRequest, TrackerSettingsResponse } from "@ringback/protocol";
import { callDaemon } from "./daemon-local-api.ts";

/** The Multica simulator (fakes/multica) in this process, seeded with its demo workspace. */
export interface TrackerSimulator extends AsyncDisposable {
  readonly fake: FakeMultica;
  /** `DAEMON_TRACKER_API_URL` for a daemon that should talk to this simulator. */
  readonly url: string;
  /** The demo data: a user with a `mul_` token, workspace "Ringback Demo", project "Launch", agents. */
  readonly seed: DemoSeed;
  close(): Promise<void>;
}

/** Starts the simulator on a free loopback port with `--seed demo`'s data. */
export async function startTrackerSimulator(): Promise<TrackerSimulator> {
  const fake = await startFakeMultica({ host: "127.0.0.1" });
  const seed = seedDemo(fake.state);
  const close = () => fake.close();
  return { fake, url: fake.url, seed, close, [Symbol.asyncDispose]: close };
}

/** `PUT /tracker/settings`: the daemon checks the token and workspaces against the tracker, saves and watches. */
export async function putTrackerSettings(
  daemon: { readonly url: string; readonly localKey: string },
  request: PutTrackerSettingsRequest,
): Promise<TrackerSettingsResponse> {
  const response = await callDaemon(daemon, "PUT", "/tracker/settings", request);
  if (!response.ok)
    throw new Error(`PUT /tracker/settings answered ${response.status}: ${await response.text()}`);
  return TrackerSettingsResponse.parse(await response.json());
}
