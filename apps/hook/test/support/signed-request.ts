import { expect } from "vitest";
import { LOCAL_KEY } from "./hook-process.js";

/** Asserts that a request the hook sent carries a proof made with the local key, and the key nowhere. */
export function expectSignedWithoutTheKey(
  request: { headers: Record<string, unknown>; body: string } | undefined,
): void {
  expect(request?.headers["ringback-request-proof"]).toMatch(/^v1\.\d+\.[\w-]{22}\.[\w-]{43}$/);
  expect(request?.headers.authorization).toBeUndefined();
  expect(JSON.stringify(request)).not.toContain(LOCAL_KEY);
}
