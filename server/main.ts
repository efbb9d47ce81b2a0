import { resolve } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase } from './db/database';
import { type OpsSocket, startOpsSocket } from './ops/ops-socket';
import { keepNewFilesPrivate } from './private-files';
import { seedDemoOperators } from './seed/demo-operators';
import { seedDemoWorld } from './seed/demo-world';

// Before anything is written: DATA_DIR's files are this user's only, whatever umask started us (decision 0060).
keepNewFilesPrivate();

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({
    database,
    spaDir: resolve('dist'),
    logger: { level: config.logLevel },
    config,
    runJobs: true,
  });
  if (!config.smtpUrl) {
    const note = 'SMTP_URL is not set: e-mails stay in the outbox table (npm run ops -- mail:list)';
    if (config.production) app.log.warn(note);
    else app.log.info(note);
  }

  if (config.seedDemo) {
    const seeded = await seedDemoWorld(database.db, app.authenticity);
    await seedDemoOperators(database.db, config.satEncryptionKey);
    app.log.info(seeded.created ? `demo data loaded: ${seeded.summary}` : 'demo data already present');
  }

  // PGlite: this process holds DATA_DIR, so operator commands reach the database through it (decision 0013).
  // PostgreSQL: the CLI connects to the database itself.
  let opsSocket: OpsSocket | null = null;
  if (database.kind === 'pglite') {
    try {
      opsSocket = await startOpsSocket({ dataDir: config.dataDir, database, config, log: app.log });
    } catch (error) {
      app.log.warn(`${String(error)}. Stop the server to run operator commands that need the database.`);
    }
  }

  // Graceful shutdown (systemd's stop and restart send SIGTERM): stop accepting, let the requests under way
  // finish, stop the jobs (app.close's onClose), close the database, exit 0. Requests still running after
  // SHUTDOWN_GRACE_SECONDS (10) have their connections closed, so a stuck client cannot hold a restart.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    const graceMs = config.shutdownGraceSeconds * 1000;
    const force = setTimeout(() => {
      app.log.warn(`requests still running after ${graceMs} ms: closing their connections`);
      app.server.closeAllConnections();
    }, graceMs);
    force.unref();
    try {
      await opsSocket?.close();
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
    } finally {
      clearTimeout(force);
      await database
        .close()
        .catch((error: unknown) => app.log.error({ err: error }, 'database close failed'));
      app.log.info('shut down');
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Flujo on http://localhost:${config.port}/inicio/ (database: ${database.kind})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`Flujo cannot start.\n${error.message}`);
  } else {
    console.error('Flujo failed to start:', error);
  }
  process.exit(1);
});
