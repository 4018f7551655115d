import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loggerOptions, redactUrl } from './logger';
import { createHarness, randomIp, testConfig, type Harness } from '../test/helpers';
import { openTestDatabase } from '../test/test-database';

/** A log destination the test can read back. */
function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('health', () => {
  it('GET /healthz says the process is up', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz says the database answers', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('GET /readyz answers 503 when the database is gone', async () => {
    const database = await openTestDatabase();
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await database.close();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    await app.close();
    await database.destroy();
  });
});

describe('security headers', () => {
  it('sends CSP with frame-ancestors, nosniff and a referrer policy', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('dashboard history fallback', () => {
  it.each([
    '/',
    '/login',
    '/demo/login',
    '/projects/sp/environments/production/features',
    '/admin/projects',
    '/nope/at/all',
  ])('serves the dashboard for %s', async (url) => {
    const res = await h.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('never answers an unknown API path with the page', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/v1/nothing-here',
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ title: string }>().title).toBe('Not found');
  });
});

describe('OpenAPI', () => {
  it('documents the routes at /api/docs', async () => {
    const doc = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/authenticate', '/api/v1/initial']));
    const ui = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});

describe('error handler', () => {
  it('answers invalid JSON with 400 and a JSON body', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ title: string }>().title).toBe('Bad request');
  });

  it('refuses __proto__ keys', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"a@b.c","password":"x","domain":"acme","__proto__":{"admin":true}}',
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(400);
  });

  it('hides the cause of a 500 from the client and logs it', async () => {
    const { lines, stream } = captureLogs();
    const database = await openTestDatabase();
    const logger = { ...(loggerOptions('info') as object), stream };
    const app = await buildApp({ config: testConfig(), database, logger });
    app.get('/api/v1/boom', { config: { public: true } }, async () => {
      throw new Error('secret internal detail');
    });
    const res = await app.inject({ method: 'GET', url: '/api/v1/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internal detail');
    expect(res.json<{ title: string }>().title).toBe('Something went wrong on our side. Please try again.');
    expect(lines.join('')).toContain('secret internal detail');
    await app.close();
    await database.destroy();
  });
});

describe('writes that take no body', () => {
  /** Every signed-in write of the dashboard API without a body schema; Sign out everywhere last. */
  function bodyless() {
    return h.app.routeTable
      .filter(
        (route) =>
          ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) &&
          route.url.startsWith('/api/') &&
          !/^\/api\/(sdk|js)\//.test(route.url) &&
          !route.isPublic &&
          route.bodySchema === undefined,
      )
      .sort((a, b) => Number(a.url.includes('revoke-all')) - Number(b.url.includes('revoke-all')));
  }
  const filled = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000001');
  const noBody = 'This request takes no body';

  it('take an empty JSON object, an empty body with a JSON content type, and no body alike', async () => {
    const routes = bodyless();
    expect(routes.map((r) => r.url)).toContain('/api/v1/billing/subscription/manage');
    const wrong: string[] = [];
    for (const payload of ['{}', '', undefined]) {
      const admin = await h.createOrganisation();
      const token = await h.login(admin);
      for (const route of routes) {
        const res = await h.app.inject({
          method: route.method as 'POST',
          url: filled(route.url),
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(payload === undefined ? {} : { payload }),
        });
        // The placeholder ids may be refused as params; nothing else is a reason for a 400 here.
        const errors =
          res.statusCode === 400 ? (res.json<{ errors?: { field: string }[] }>().errors ?? []) : [];
        const aboutParams = errors.length > 0 && errors.every((e) => e.field.startsWith('params.'));
        if ((res.statusCode === 400 && !aboutParams) || res.statusCode >= 500)
          wrong.push(
            `${route.method} ${route.url} with ${JSON.stringify(payload)}: ${res.statusCode} ${res.body}`,
          );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('still refuse a body that says something', async () => {
    const admin = await h.createOrganisation();
    const token = await h.login(admin);
    for (const payload of ['{"all":true}', '[]', '"x"']) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/billing/subscription/manage',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toMatchObject({
        title: noBody,
        errors: [{ field: '(body)', message: noBody }],
      });
    }
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or cookies', async () => {
    const { lines, stream } = captureLogs();
    const database = await openTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      logger: { ...(loggerOptions('trace') as object), stream },
    });
    await app.inject({
      method: 'GET',
      url: '/login/vxo_supersecretonetimetoken',
      headers: {
        authorization: 'Bearer vxs_secretbearer',
        cookie: 'authenticationToken=vxs_secretcookie',
        accept: 'text/html',
      },
    });
    await app.inject({
      method: 'POST',
      url: '/api/authenticate',
      payload: { username: 'a@example.com', password: 'secretpassword', domain: 'acme' },
    });
    const all = lines.join('');
    expect(all.length).toBeGreaterThan(0);
    for (const secret of [
      'supersecretonetimetoken',
      'vxs_secretbearer',
      'vxs_secretcookie',
      'secretpassword',
    ]) {
      expect(all).not.toContain(secret);
    }
    await app.close();
    await database.destroy();
  });

  it('redacts SDK keys and reset keys in URLs', () => {
    expect(redactUrl('/api/js/v1/evaluate/sdk-js-env-0123456789abcdef0123456789abcdef/user/x')).toBe(
      '/api/js/v1/evaluate/sdk-js-env-[redacted]/user/x',
    );
    expect(redactUrl('/resetpassword?key=abc&x=1')).toBe('/resetpassword?key=[redacted]&x=1');
  });
});
