import type { CallCenter } from "@ringback/client";
import { aad, generateKey, openJson, sealJson } from "@ringback/e2e-crypto";
import { ReplyPlaintext } from "@ringback/protocol";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeCallRelay,
  type RelayedReply,
  startFakeCallRelay,
} from "../../../../packages/client/test/fake-call-relay.js";
import { payloadFor } from "../../../../packages/client/test/fixtures.js";
import { startListeningTerminal } from "../../test/helpers/listening-terminal.js";

const key = generateKey();
let relay: FakeCallRelay;
let center: CallCenter | null = null;

/** The computer: a reply whose text asks for it fails with the agent's exit and stderr, any other is delivered. */
async function settle(reply: RelayedReply) {
  const { text } = ReplyPlaintext.parse(
    await openJson(key, aad.replyTo("computer", reply.eventId), reply.request.sealed),
  );
  if (!text.includes("fail"))
    return { status: "delivered" as const, sealedReason: null, plaintextReason: null };
  return {
    status: "failed" as const,
    sealedReason: await sealJson(key, aad.replyError(reply.request.replyId), {
      reason: "claude exited with code 1: session not found",
    }),
    plaintextReason: null,
  };
}

beforeEach(async () => {
  relay = await startFakeCallRelay(settle);
});

afterEach(async () => {
  center?.stop();
  await relay.close();
});

async function terminalInACall(eventId: string) {
  const started = await startListeningTerminal(relay.origin, key);
  center = started.center;
  const { session, output } = started;
  const now = new Date().toISOString();
  relay.publish({
    eventId,
    source: "claude-code",
    occurredAt: now,
    receivedAt: now,
    taskId: null,
    fromDeviceId: "computer",
    sealed: await sealJson(key, aad.report(eventId), payloadFor({ eventId, occurredAt: now })),
  });
  await eventually(() => output().includes("a = answer"));
  await session.command("a");
  return { session, output };
}

describe("a reply from the terminal companion", () => {
  it("says when the agent got it, and why it failed when it did, as the computer sealed it", async () => {
    const { session, output } = await terminalInACall("e-reply");
    await session.command("reply Go on with the migration.");
    await eventually(() => output().includes('Reply "Go on with the migration.": Delivered\n'));
    await session.command("reply Please fail this one.");
    await eventually(() =>
      output().includes(
        'Reply "Please fail this one.": Failed: claude exited with code 1: session not found\n',
      ),
    );
    // Each status once.
    expect(output().split("Delivered\n")).toHaveLength(2);
  });
});
