import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../db/open';
import { startThrowawayPostgres } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the throw-away cluster (database `postgres`); tests create their own databases. */
    postgresAdminUrl: string;
    /** A database with every migration applied, which each test app's database is copied from. */
    postgresTemplate: string;
  }
}

/**
 * Global setup of the "api-postgres" project: starts a throw-away PostgreSQL 15 cluster, provides its admin
 * URL to the tests (`inject('postgresAdminUrl')`) and removes it all at the end. Set TEST_POSTGRES_URL to
 * use an existing server instead (tests then create and drop databases there).
 *
 * Also a migrated template database, made once through the app's own migrations: a test app's database is
 * a copy of it (CREATE DATABASE … TEMPLATE, ~0.05 s) instead of an empty one migrated from scratch (0.6–1.3 s
 * each, for every test app of the run). Test apps still run migrateToLatest (a no-op on the copy); tests of
 * the migrations themselves keep asking for empty databases.
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_POSTGRES_URL;
  const cluster = external ? undefined : await startThrowawayPostgres();
  const adminUrl = external ?? cluster!.url;
  project.provide('postgresAdminUrl', adminUrl);
  const template = `hiram_test_template_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const teardown = async () => {
    if (cluster) await cluster.stop();
    else await admin(`drop database if exists ${template} with (force)`);
  };
  try {
    await admin(`create database ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
    try {
      await migrateToLatest(database.db);
    } finally {
      // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
      await database.close();
    }
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('postgresTemplate', template);
  return teardown;
}
