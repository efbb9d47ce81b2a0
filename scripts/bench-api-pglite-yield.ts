// `npm run bench:api -- --pglite-yield` only (decision 0040's candidate, not Flujo's behaviour): preloaded into
// the PGlite server, it makes every PGlite query wait one turn of the event loop first, so timers and sockets get
// a turn between two queries instead of after the whole queue of waiting requests.
import { PGlite } from '@electric-sql/pglite';

// Taken at load, like a real implementation would, so a faked global setImmediate could not stall a query.
const nextTurn = setImmediate;
const query = PGlite.prototype.query;
PGlite.prototype.query = async function (this: PGlite, ...args: Parameters<typeof query>) {
  await new Promise((resolve) => nextTurn(resolve));
  return query.apply(this, args);
} as typeof query;
