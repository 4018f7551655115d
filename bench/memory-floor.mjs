/**
 * The floor of the memory benchmark (memory.bench.ts): the least a Node process serving HTTP on the
 * same database holds, plain JavaScript with no loader, started with the product's Node flags.
 * Usage: node [flags] memory-floor.mjs <port> pglite <PGlite module URL> <data dir> <settings JSON> <V8 flags JSON>
 *        node [flags] memory-floor.mjs <port> postgres <connection string>
 *
 * It opens the database as the product does (PGlite with the same settings and V8 flags, or one
 * node-postgres connection), runs one query, then answers GET /readyz with 200 as the product does.
 */
import http from 'node:http';
import v8 from 'node:v8';

const [port, kind, ...rest] = process.argv.slice(2);

if (kind === 'pglite') {
  const [moduleUrl, dataDir, settings, flags] = rest;
  v8.setFlagsFromString(JSON.parse(flags).join(' '));
  const { PGlite } = await import(moduleUrl);
  const db = new PGlite(dataDir, { postgresqlconf: JSON.parse(settings) });
  await db.query('select count(*) from organisations');
  process.on('SIGTERM', () => db.close().then(() => process.exit(0)));
} else if (kind === 'postgres') {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: rest[0] });
  await client.connect();
  await client.query('select count(*) from organisations');
  process.on('SIGTERM', () => client.end().then(() => process.exit(0)));
} else {
  process.on('SIGTERM', () => process.exit(0));
}

http
  .createServer((request, response) => {
    response.writeHead(request.url === '/readyz' ? 200 : 404, { 'content-type': 'application/json' });
    response.end('{"status":"ready"}');
  })
  .listen(Number(port), '127.0.0.1');
