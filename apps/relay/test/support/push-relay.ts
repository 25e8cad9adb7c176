import { startTestPushService, type TestPushService } from "@ringback/test-kit";
import type { RelayConfig } from "../../src/relay-config.js";
import { type SocketRelay, socketRelay } from "./socket-relay.js";

/**
 * A relay on 127.0.0.1 port 0 (temp-dir SQLite, fake clock, captured log) that trusts a test push service of its
 * own. The push timer is slowed to an hour: tests move the clock and call `relay.pushDue()` themselves.
 */
export interface PushRelay extends SocketRelay {
  readonly pushService: TestPushService;
  /** Moves the clock and sends what fell due, waiting for the push service's answers. */
  advance(ms: number): Promise<void>;
}

const HOUR_MS = 60 * 60 * 1000;

export async function pushRelay(config: Partial<RelayConfig> = {}): Promise<PushRelay> {
  const pushService = await startTestPushService();
  const relay = await socketRelay(
    // The test push service listens on loopback at a port of its own: only an origin the operator trusts may.
    { pushPollMs: HOUR_MS, pushTrustedOrigins: [pushService.origin], ...config },
    { pushAgent: pushService.agent },
  );
  return {
    ...relay,
    pushService,
    async advance(ms) {
      relay.clock.advance(ms);
      await relay.server.relay.pushDue();
    },
    async [Symbol.asyncDispose]() {
      await relay[Symbol.asyncDispose]();
      await pushService.close();
    },
  };
}
