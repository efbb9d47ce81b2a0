// `npm run ops -- <command>`: operator commands on the same database the server uses.
// With PGlite the server must be stopped first (the data-directory lock says so); with PostgreSQL both can run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { type DatabaseHandle, openDatabase } from './db/database';
import { listOutbox } from './mail/outbox.repository';
import { importCfdiFiles } from './modules/invoices/cfdi-import.service';
import { OPS_COMMANDS, OPS_HELP, runOpsCommand } from './ops/commands';
import { seedDemoWorld } from './seed/demo-world';

const HELP = `Flujo operations

  npm run ops -- demo:load                 load the demo world (no-op when already loaded)
  npm run ops -- cfdi:import <file|dir>... import CFDI 4.0 XML files as invoices (AVAILABLE)
  npm run ops -- mail:list [--limit N]     the mail outbox, newest first (default 10)
${OPS_HELP}
  npm run ops -- help                      this text
`;

type Command = (database: DatabaseHandle, args: string[]) => Promise<number>;

function xmlFiles(paths: string[]): string[] {
  return paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.toLowerCase().endsWith('.xml'))
          .sort()
          .map((name) => join(path, name))
      : [path],
  );
}

const COMMANDS: Record<string, Command> = {
  'demo:load': async ({ db }) => {
    const result = await seedDemoWorld(db);
    console.log(
      result.created ? `Demo data loaded: ${result.summary}` : 'Demo data already present; nothing changed.',
    );
    return 0;
  },
  'cfdi:import': async ({ db }, args) => {
    if (args.length === 0) {
      console.error('cfdi:import needs at least one XML file or directory.');
      return 2;
    }
    const files = xmlFiles(args).map((path) => ({ name: basename(path), content: readFileSync(path) }));
    const result = await importCfdiFiles(db, files, 'operador (cfdi:import)');
    for (const item of result.imported) console.log(`importada  ${item.name}  ${item.uuid}  id=${item.id}`);
    for (const item of result.rejected) console.log(`rechazada  ${item.name}  ${item.reason}`);
    console.log(`${result.imported.length} importadas, ${result.rejected.length} rechazadas`);
    return result.rejected.length > 0 ? 1 : 0;
  },
  'mail:list': async ({ db }, args) => {
    const limit = parseLimit(args);
    if (limit === null) {
      console.error('mail:list takes --limit N with N a whole number from 1 to 1000.');
      return 2;
    }
    const rows = await listOutbox(db, limit);
    if (rows.length === 0) console.log('The outbox is empty.');
    for (const row of rows) {
      const state = row.error
        ? `error: ${row.error}`
        : row.sent_at
          ? `sent ${row.sent_at}`
          : 'not sent (outbox)';
      console.log(`#${row.id}  ${row.created_at}  to ${row.recipient}  [${state}]`);
      console.log(`Subject: ${row.subject}`);
      console.log(row.body_text);
      console.log('-'.repeat(72));
    }
    return 0;
  },
};

const DEFAULT_MAIL_LIMIT = 10;

/** `--limit N` or `--limit=N`; null when malformed. */
function parseLimit(args: string[]): number | null {
  let text: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--limit') text = args[++i] ?? '';
    else if (arg.startsWith('--limit=')) text = arg.slice('--limit='.length);
    else return null;
  }
  if (text === undefined) return DEFAULT_MAIL_LIMIT;
  const limit = Number(text);
  return Number.isInteger(limit) && limit >= 1 && limit <= 1000 ? limit : null;
}

async function main(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const opsCommand = OPS_COMMANDS[name];
  if (opsCommand) return runOpsCommand(opsCommand, args);
  const command = COMMANDS[name];
  if (!command) {
    console.log(HELP);
    return name === 'help' ? 0 : 2;
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await command(database, args);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
