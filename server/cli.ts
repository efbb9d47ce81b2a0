// `npm run ops -- <command>`: operator commands on the same database the server uses.
// PostgreSQL: the CLI connects itself, beside any running server. PGlite: one process may open DATA_DIR, so
// when a running server holds it the command goes to that server over DATA_DIR/ops.sock and runs there
// (docs/decisions/0013-ops-socket.md); when none does, the CLI opens the database itself.
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { CONSOLE_OUTPUT, OPS_COMMANDS, OPS_HELP, opsAccount, runOpsCommand } from './ops/commands';
import { OpsSocketUnavailableError, opsSocketPath, sendOpsCommand } from './ops/ops-socket';
import { keepNewFilesPrivate } from './private-files';

// The CLI may open DATA_DIR itself (no server running) and writes backups and exports: all owner-only.
keepNewFilesPrivate();

const HELP = `Flujo operations

${OPS_HELP}
  npm run ops -- help
      this text

With PGlite, a command that needs the database runs inside the Flujo server when one is using DATA_DIR
(over DATA_DIR/ops.sock), and here otherwise.
`;

async function main(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const command = OPS_COMMANDS[name];
  if (!command) {
    console.log(HELP);
    return name === 'help' ? 0 : 2;
  }
  const config = loadConfig();
  try {
    return await runOpsCommand(command, args, { config });
  } catch (error) {
    // Thrown before the command ran: a server holds the PGlite data directory, so it runs the command.
    if (!(error instanceof DataDirLockedError)) throw error;
    const path = opsSocketPath(config.dataDir);
    try {
      return await sendOpsCommand(
        path,
        { command: name, args, cwd: process.cwd(), account: opsAccount() },
        CONSOLE_OUTPUT,
      );
    } catch (socketError) {
      if (!(socketError instanceof OpsSocketUnavailableError)) throw socketError;
      console.error(
        `${error.message}\nThat process does not accept operator commands on ${path} (${socketError.message}); ` +
          'it may be another ops command or a server older than this CLI.',
      );
      return 1;
    }
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
