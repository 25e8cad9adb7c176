import { z } from "zod";
import { DEFAULT_LOCAL_PORT } from "../limits.js";
import { E2eKeySource, E2eKeyText } from "./e2e.js";

/**
 * `{data_dir}/daemon.json`. Unknown keys are kept when the daemon writes the file back.
 * `llm.primary` is read leniently: a channel missing baseUrl, apiKey or model, or malformed, counts as
 * not configured rather than stopping the daemon (see `LlmChannel`).
 */
export const DaemonConfig = z
  .object({
    localPort: z.number().int().min(1).max(65535).default(DEFAULT_LOCAL_PORT),
    /** The relay's address. */
    serverUrl: z.string().url().optional(),
    llm: z.object({ primary: z.unknown().optional() }).loose().optional(),
    e2e: z
      .object({
        key: E2eKeyText,
        source: E2eKeySource.default("generated"),
        updatedAt: z.string().optional(),
      })
      .loose()
      .optional(),
    brief: z.object({ language: z.string().optional() }).loose().optional(),
    tracker: z
      .object({
        token: z.string().optional(),
        /** The origin the token was saved for (the tracker's address then): it is sent nowhere else. */
        tokenOrigin: z.string().optional(),
        workspaces: z.array(z.string()).default([]),
      })
      .loose()
      .optional(),
    /**
     * This computer's identity at the relay (written by `ringback login`); `deviceName` is the name it joined with,
     * which the relay lists sealed: kept to seal it again when the key changes.
     */
    relay: z
      .object({
        deviceToken: z.string(),
        accountId: z.string(),
        deviceId: z.string(),
        deviceName: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type DaemonConfig = z.infer<typeof DaemonConfig>;
