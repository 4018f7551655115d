import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built dashboard and answers every other GET that accepts HTML with index.html, so each
 * client-side route loads on refresh. API paths never fall back to the page.
 */
export async function registerWeb(app: FastifyInstance, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        // Vite fingerprints assets, so they can be cached for good; index.html must always be fresh.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = (request.url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/').toLowerCase();
    const isApi = pathname.startsWith('/api/') || pathname === '/api' || /^\/[^/]+\/api(\/|$)/.test(pathname);
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    if (!isApi && !hasWeb && request.method === 'GET' && wantsHtml) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The dashboard has not been built. Run `npm run build` (npm start does it for you).');
    }
    return reply
      .code(404)
      .send({ title: 'Not found', detail: `No route ${request.method} ${pathname}`, code: 'not_found' });
  });
}
