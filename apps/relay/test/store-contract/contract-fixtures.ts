import type { DeviceKind } from "@ringback/protocol";
import type { NewDevice, NewEvent, NewReply, RelayStore } from "../../src/store/store.js";

/** What the RelayStore contract suites build their data from. */
export const MINUTE_MS = 60_000;
export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** Device limits no contract test meets unless it means to. */
export const ROOMY_LIMITS = { devicesMax: 1000, pairingsMax: 1000, pairingWindowMs: 60 * MINUTE_MS } as const;

/** Call limits no contract test meets unless it means to. */
export const ROOMY_EVENT_LIMITS = { openCallsMax: 1_000_000, sealedBytesMax: 1024 * 1024 * 1024 } as const;

/** Reply limits no contract test meets unless it means to. */
export const ROOMY_REPLY_LIMITS = { queuedMax: 1000, sealedBytesMax: 1024 * 1024 * 1024 } as const;

export function contractDevice(id: string, kind: DeviceKind = "phone"): NewDevice {
  return { id, name: `device ${id}`, kind, tokenHash: `hash-${id}` };
}

/** Call "ev1" of account "acc1", sent by the computer "pc", ringing for an hour from T0. */
export function contractEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    accountId: "acc1",
    eventId: "ev1",
    source: "claude-code",
    occurredAt: new Date(T0).toISOString(),
    taskId: null,
    fromDeviceId: "pc",
    sealed: "e2e1.k.iv.ct",
    receivedAt: T0,
    expiresAt: T0 + 60 * MINUTE_MS,
    limits: ROOMY_EVENT_LIMITS,
    ...overrides,
  };
}

/** Reply "r1" of the phone to call "ev1" of account "acc1", sent at T0 and waiting for an hour, within roomy limits. */
export function contractReply(overrides: Partial<NewReply> = {}): NewReply {
  return {
    accountId: "acc1",
    eventId: "ev1",
    replyId: "r1",
    fromDeviceId: "phone",
    sealed: "e2e1.reply",
    now: T0,
    expiresAt: T0 + 60 * MINUTE_MS,
    limits: ROOMY_REPLY_LIMITS,
    ...overrides,
  };
}

/** Account "acc1": the computer "pc" that created it, and a phone and a tablet paired through codes. */
export async function seedPhoneAndTablet(store: RelayStore): Promise<void> {
  await store.createAccount({ accountId: "acc1", device: contractDevice("pc", "computer"), now: T0 });
  for (const id of ["phone", "tablet"]) {
    await store.createPairingCode({
      codeHash: `code-${id}`,
      accountId: "acc1",
      createdBy: "pc",
      expiresAt: T0 + MINUTE_MS,
      now: T0,
    });
    await store.redeemPairingCode({
      codeHash: `code-${id}`,
      device: contractDevice(id),
      now: T0,
      limits: ROOMY_LIMITS,
    });
  }
}
