import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the throw-away cluster (database `postgres`); tests create their own databases. */
    postgresAdminUrl: string;
  }
}

/**
 * Global setup of the "api-postgres" project: starts a throw-away PostgreSQL 15 cluster, provides its admin
 * URL to the tests (`inject('postgresAdminUrl')`) and removes it all at the end. Set TEST_POSTGRES_URL to
 * use an existing server instead (tests then create and drop databases there).
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_POSTGRES_URL;
  if (external) {
    project.provide('postgresAdminUrl', external);
    return;
  }
  const cluster = await startThrowawayPostgres();
  project.provide('postgresAdminUrl', cluster.url);
  return () => cluster.stop();
}
