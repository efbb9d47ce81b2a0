// `npm run ops -- <command>`: operator commands on the same database the server uses.
// With PGlite the server must be stopped first (the data-directory lock says so); with PostgreSQL both can run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { type DatabaseHandle, openDatabase } from './db/database';
import { importCfdiFiles } from './modules/invoices/cfdi-import.service';
import { seedDemoWorld } from './seed/demo-world';

const HELP = `Flujo operations

  npm run ops -- demo:load                 load the demo world (no-op when already loaded)
  npm run ops -- cfdi:import <file|dir>... import CFDI 4.0 XML files as invoices (AVAILABLE)
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
};

async function main(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
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
