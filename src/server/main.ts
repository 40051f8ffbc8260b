import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, paymentChannelsWarning } from './config';
import { migrateToLatest, openDatabase, pgliteDataPath } from './db/open';

/**
 * Everything after the database: Fastify, its plugins, every route and the packages they import. Loaded
 * while the database opens (issue #35): the build puts these in chunks of their own
 * (scripts/build-server.mjs), so their files are read and compiled while PGlite's WebAssembly compiles and
 * a first start's files are written, instead of before any of that begins.
 */
const loadServer = () =>
  Promise.all([
    import('./app'),
    import('./auth/sessions'),
    import('./bootstrap-admin'),
    import('./lib/clock'),
    import('./lib/logging'),
    import('./loans/backfill-loan-terms'),
    import('./loans/refresh-loan-facts'),
    import('./products/ensure-default-product'),
  ]);

const PRUNE_EVERY_MS = 60 * 60 * 1000;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const loading = loadServer();
  // Awaited below; until then a failure to load must not end the process as an unhandled rejection.
  loading.catch(() => {});
  // An embedded database with no files yet is a first start, which creates the first admin: its one-time
  // password is hashed now, on argon2's own thread beside the database's start, instead of after it (the
  // first hash of a process takes ~0.1 s; issue #35).
  const adminCredentials =
    !config.databaseUrl && !existsSync(pgliteDataPath(config.dataDir))
      ? import('./bootstrap-admin').then((m) => m.newAdminCredentials())
      : undefined;
  adminCredentials?.catch(() => {});
  const database = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          poolSize: config.databasePoolSize,
          preparedStatements: config.databasePreparedStatements,
        }
      : {
          kind: 'pglite',
          dataDir: config.dataDir,
          // Built layout only (dist/server): a first start copies the migrated template, no initdb.
          template: fileURLToPath(new URL('./pglite-template', import.meta.url)),
        },
  );
  let closing = false;
  try {
    await migrateToLatest(database.db);
    const [
      { buildApp },
      { pruneExpired },
      { bootstrapAdminNotice, ensureBootstrapAdmin },
      { clockStartingAt },
      { loggerOptions },
      { backfillLoanTerms },
      { backfillLoanFacts },
      { ensureDefaultProduct },
    ] = await loading;
    const app = await buildApp({
      config,
      db: database.db,
      dbKind: database.kind,
      ...(config.testClockStart ? { clock: clockStartingAt(config.testClockStart) } : {}),
      webRoot: fileURLToPath(new URL('../../dist/web', import.meta.url)),
      logger: loggerOptions(config.logLevel),
      ...(database.poolStats ? { poolStats: database.poolStats } : {}),
      ...(database.listen ? { listen: database.listen } : {}),
    });

    // On an empty database the loan settings become version 1 of the default product (docs/decisions/034).
    if (await ensureDefaultProduct(app.deps))
      app.log.info('the loan settings became version 1 of the default loan product');
    // Loans signed before their terms were stored with them (migration 024) get the terms in force now.
    const termed = await backfillLoanTerms(app.deps, config.repaymentRules);
    if (termed > 0) app.log.info({ loans: termed }, 'loan terms stored from the settings in force');
    // Loans paid out before their facts were stored (migration 008) get them before the first request.
    const backfilled = await backfillLoanFacts(app.deps);
    if (backfilled > 0) app.log.info({ loans: backfilled }, 'stored loan facts computed');

    // Borrowers are shown example payment channels until the lender sets real ones (docs/decisions/037).
    const channelsWarning = paymentChannelsWarning(config);
    if (channelsWarning) app.log.warn(channelsWarning);

    const bootstrapAdmin = await ensureBootstrapAdmin({ db: database.db }, adminCredentials);
    if (bootstrapAdmin) console.info(bootstrapAdminNotice(bootstrapAdmin));

    const pruneTimer = setInterval(() => {
      pruneExpired(database.db).catch((error) => app.log.warn({ err: error }, 'pruning expired rows failed'));
    }, PRUNE_EVERY_MS);
    pruneTimer.unref();

    /**
     * Graceful shutdown (SIGTERM, SIGINT): stop accepting connections, end the live event streams
     * (a preClose hook), let in-flight requests finish, close the bus, storage and database, exit 0.
     * Requests still running after SHUTDOWN_TIMEOUT_SECONDS lose their connections and the exit code is 1.
     * A second signal exits at once.
     */
    const shutdown = async (signal: string) => {
      if (closing) {
        app.log.warn({ signal }, 'second signal during shutdown: exiting now');
        process.exit(1);
      }
      closing = true;
      app.log.info({ signal }, 'shutting down');
      clearInterval(pruneTimer);
      // A keep-alive connection whose request finishes during the drain would otherwise stay open
      // (and keep the server from closing) until its idle timeout.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      let forced = false;
      const deadline = setTimeout(() => {
        forced = true;
        app.log.warn(
          { timeoutMs: config.shutdownTimeoutMs },
          'requests still running at the shutdown deadline; closing their connections',
        );
        app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      try {
        await app.close();
        clearTimeout(deadline);
        clearInterval(reaper);
        await database.close();
        app.log.info({ signal }, forced ? 'stopped (forced)' : 'stopped');
        process.exit(forced ? 1 : 0);
      } catch (error) {
        console.error('Shutdown failed', error);
        process.exit(1);
      }
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));

    await app.listen({ port: config.port, host: config.host });
    console.info(
      `Hiram is running on ${config.publicUrl ?? `http://localhost:${config.port}`} (database: ${database.kind})`,
    );
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
