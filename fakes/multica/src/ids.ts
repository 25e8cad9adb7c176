import { randomBytes, randomUUID } from "node:crypto";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId(): string {
  return randomUUID();
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** A personal access token in the tracker's format: `mul_` followed by 40 lowercase hex characters. */
export function newPersonalToken(): string {
  return `mul_${randomBytes(20).toString("hex")}`;
}
