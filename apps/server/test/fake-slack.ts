import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the parts of Slack that the chat integration uses, spoken as Slack documents
 * them (https://api.slack.com/authentication/oauth-v2, https://api.slack.com/messaging/webhooks):
 *
 * - `GET /oauth/v2/authorize?client_id&scope&redirect_uri&state`: the authorisation page. Here the
 *   person approves at once: the answer redirects to `redirect_uri?code=…&state=…` (or
 *   `?error=access_denied&state=…` after `denyNext()`).
 * - `POST /api/oauth.v2.access`: a form body with `code` and `redirect_uri`, the app's client id and
 *   secret by HTTP Basic authentication (or as form fields). Answered HTTP 200 with `{ok: true,
 *   access_token, token_type, scope, app_id, team, incoming_webhook: {channel, channel_id,
 *   configuration_url, url}}`, or `{ok: false, error}` (`invalid_client`, `invalid_code`,
 *   `bad_redirect_uri`); a code works once.
 * - `POST /services/{team}/{bot}/{secret}`: an incoming webhook. A JSON body with `text` or `blocks`
 *   is answered 200 `ok`; otherwise 400 `invalid_payload`; an unknown hook 404 `no_service`. Tests can
 *   script failures (`failNext`: 500, 429 with `Retry-After`…).
 */

export type SlackPost = { hook: string; body: { text?: string; blocks?: unknown[] } };

export type FakeSlack = {
  /** `http://localhost:{port}` (the host name tests allow through OUTGOING_ALLOWED_HOSTS). */
  url: string;
  apiUrl: string;
  oauthUrl: string;
  clientId: string;
  clientSecret: string;
  channel: string;
  /** Every request, as `METHOD /path`. */
  requests: string[];
  /** Messages accepted by incoming webhooks, in order. */
  posts: SlackPost[];
  /** Exchanges of codes, accepted or not. */
  exchanges: { code: string; ok: boolean }[];
  /** The next approvals are refused by the person (`?error=access_denied`). */
  denyNext(): void;
  /** The next incoming-webhook posts are answered with these statuses (and `Retry-After` seconds). */
  failNext(...answers: { status: number; retryAfter?: number }[]): void;
  /** The incoming webhook URLs handed out. */
  hooks(): string[];
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeSlack(
  options: { clientId?: string; clientSecret?: string; channel?: string } = {},
): Promise<FakeSlack> {
  const clientId = options.clientId ?? '1234.5678';
  const clientSecret = options.clientSecret ?? 'slack-client-s3cret';
  const channel = options.channel ?? '#releases';
  const requests: string[] = [];
  const posts: SlackPost[] = [];
  const exchanges: { code: string; ok: boolean }[] = [];
  const codes = new Map<string, { redirectUri: string }>();
  const hooks = new Set<string>();
  const failures: { status: number; retryAfter?: number }[] = [];
  let deny = 0;
  let base = '';

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const text = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    res.end(body);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      requests.push(`${req.method} ${url.pathname}`);
      if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') {
        const redirectUri = url.searchParams.get('redirect_uri');
        const state = url.searchParams.get('state') ?? '';
        if (url.searchParams.get('client_id') !== clientId || !redirectUri)
          return text(res, 400, 'invalid_client_id');
        if (url.searchParams.get('scope') !== 'incoming-webhook') return text(res, 400, 'invalid_scope');
        const back = new URL(redirectUri);
        if (deny > 0) {
          deny--;
          back.searchParams.set('error', 'access_denied');
        } else {
          const code = randomBytes(12).toString('hex');
          codes.set(code, { redirectUri });
          back.searchParams.set('code', code);
        }
        back.searchParams.set('state', state);
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/api/oauth.v2.access') {
        const form = new URLSearchParams(await readBody(req));
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
        const [id, secret] = basic
          ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')
          : [form.get('client_id'), form.get('client_secret')];
        const code = form.get('code') ?? '';
        const issued = codes.get(code);
        const fail = (error: string) => {
          exchanges.push({ code, ok: false });
          json(res, 200, { ok: false, error });
        };
        if (id !== clientId || secret !== clientSecret) return fail('invalid_client');
        if (!issued) return fail('invalid_code');
        if (form.get('redirect_uri') !== issued.redirectUri) return fail('bad_redirect_uri');
        codes.delete(code);
        exchanges.push({ code, ok: true });
        const hook = `/services/T0001/B${randomBytes(4).toString('hex').toUpperCase()}/${randomBytes(12).toString('hex')}`;
        hooks.add(hook);
        return json(res, 200, {
          ok: true,
          app_id: 'A0001',
          authed_user: { id: 'U0001' },
          scope: 'incoming-webhook',
          token_type: 'bot',
          access_token: `xoxb-${randomBytes(8).toString('hex')}`,
          bot_user_id: 'U0BOT',
          team: { id: 'T0001', name: 'Acme' },
          enterprise: null,
          is_enterprise_install: false,
          incoming_webhook: {
            channel,
            channel_id: 'C0001',
            configuration_url: 'https://acme.slack.com/services/B0001',
            url: `${base}${hook}`,
          },
        });
      }
      if (req.method === 'POST' && url.pathname.startsWith('/services/')) {
        const raw = await readBody(req);
        if (!hooks.has(url.pathname)) return text(res, 404, 'no_service');
        const failure = failures.shift();
        if (failure)
          return text(
            res,
            failure.status,
            failure.status === 429 ? 'rate_limited' : 'internal_error',
            failure.retryAfter === undefined ? {} : { 'retry-after': String(failure.retryAfter) },
          );
        let body: SlackPost['body'];
        try {
          body = JSON.parse(raw) as SlackPost['body'];
        } catch {
          return text(res, 400, 'invalid_payload');
        }
        if (typeof body.text !== 'string' && !Array.isArray(body.blocks)) return text(res, 400, 'no_text');
        posts.push({ hook: url.pathname, body });
        return text(res, 200, 'ok');
      }
      return text(res, 404, 'not_found');
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://localhost:${port}`;
  return {
    url: base,
    apiUrl: `${base}/api`,
    oauthUrl: `${base}/oauth/v2/authorize`,
    clientId,
    clientSecret,
    channel,
    requests,
    posts,
    exchanges,
    denyNext: () => {
      deny++;
    },
    failNext: (...answers) => {
      failures.push(...answers);
    },
    hooks: () => [...hooks],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
