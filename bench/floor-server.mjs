/**
 * The floor of the SDK benchmark (sdk.bench.ts): a bare node:http server, plain JavaScript with no
 * loader, in its own process as Vexil's server is, answering what Vexil's SDK API answers with nothing
 * but the work a response needs. Usage: node floor-server.mjs <body file> <etag> <sse frame file>.
 *
 * - GET with a matching If-None-Match: 304 with the ETag; any other GET: the same pre-serialised bytes.
 * - GET with Accept: text/event-stream: an open stream; POST /toggle writes one frame to every stream.
 * - Any other POST: the body read and parsed as JSON, then 200 with a small JSON answer.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [bodyFile, etag, frameFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const frame = readFileSync(frameFile, 'utf8');
const streams = new Set();

const server = http.createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/toggle') {
    for (const stream of streams) stream.write(frame);
    response.writeHead(204);
    response.end();
    return;
  }
  if (request.method === 'POST') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"stored":true}');
    });
    return;
  }
  if (String(request.headers.accept).includes('text/event-stream')) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(`retry: 5000\nevent: features.updated\ndata: {}\n\n`);
    streams.add(response);
    request.on('close', () => streams.delete(response));
    return;
  }
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, { etag, 'cache-control': 'no-cache' });
    response.end();
    return;
  }
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': body.length,
    etag,
    'cache-control': 'no-cache',
  });
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
