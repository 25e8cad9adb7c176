import type { TestProject } from "vitest/node";
import { isPostgresSkipped, type PostgresServer, startPostgresServer } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The throwaway server's database URL, or "" when it could not start. */
    postgresUrl: string;
    /** Why it could not start (the PostgreSQL tests fail with it), or "". */
    postgresError: string;
  }
}

/**
 * Starts one PostgreSQL server for every test file (tests make their own schemas in it). When it cannot start,
 * the suites that need it fail with the reason, and the others still run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: PostgresServer | null = null;
  project.provide("postgresUrl", "");
  project.provide("postgresError", "");
  if (!isPostgresSkipped()) {
    try {
      server = await startPostgresServer();
      project.provide("postgresUrl", server.url);
    } catch (error) {
      project.provide("postgresError", error instanceof Error ? error.message : String(error));
    }
  }
  return async () => {
    await server?.stop();
  };
}
