// The bench's ceiling (`npm run bench:api`): a bare Fastify route with no plugins, no logger and no database,
// run as its own process like Flujo's server, so the two compete with autocannon for the same cores.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare route listening');
// The bench holds our stdin open: when it goes away, even killed outright, so does this process.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
