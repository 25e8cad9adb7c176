/**
 * Copies of `@ringback/protocol` constants only the installer uses, for the same reason as ../protocol-constants.ts
 * (test/protocol-constants.test.ts asserts each one equals protocol's). Kept apart from that file: a module both the
 * hook and the installer imported would become a chunk of its own, and the hook would no longer be one file.
 */

/** Protocol's `PERMISSION_HOOK_TIMEOUT_SECONDS`: the timeout the installer gives the agents' permission hook. */
export const PERMISSION_HOOK_TIMEOUT_SECONDS = 330;
