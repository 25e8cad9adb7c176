import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Faults } from "./faults.js";
import { createRequestHandler } from "./http-server.js";
import { type RealtimeControls, RealtimeHub, type RealtimeOptions } from "./realtime.js";
import { RequestLog } from "./request-log.js";
import { FakeMulticaState } from "./state.js";

export interface FakeMulticaOptions extends RealtimeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Start from an existing state (the bin seeds one before starting). */
  state?: FakeMulticaState;
}

export interface FakeMultica extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the tracker API base address (and `/ws` for realtime). */
  url: string;
  state: FakeMulticaState;
  faults: Faults;
  requests: RequestLog;
  realtime: RealtimeControls;
  close(): Promise<void>;
}

/** Starts the simulated tracker on a real HTTP + WebSocket server. */
export async function startFakeMultica(options: FakeMulticaOptions = {}): Promise<FakeMultica> {
  const state = options.state ?? new FakeMulticaState();
  const faults = new Faults();
  const requests = new RequestLog();
  let url = "";
  const server = createServer(createRequestHandler({ state, faults, requests, baseUrl: () => url }));
  const realtime = new RealtimeHub(state, faults, requests, options);
  server.on("upgrade", (request, socket, head) => realtime.handleUpgrade(request, socket, head));

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      realtime.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { url, state, faults, requests, realtime, close, [Symbol.asyncDispose]: close };
}
