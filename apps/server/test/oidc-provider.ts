import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/*
 * A real OpenID Connect provider (the `oidc-provider` package) for tests: started on 127.0.0.1 on a
 * free port, with the clients and accounts a test gives it. Its login and consent screen is one small
 * form (an e-mail field, "Sign in" and "Cancel"), which a browser test fills in and `signIn` below
 * drives with fetch. The ID tokens its token endpoint answers can be rewritten and re-signed, so a
 * test can present a validly signed token with a wrong audience or issuer.
 */

/** The claims of one person at the provider; `sub` identifies them, the rest is what they share. */
export type OidcAccount = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
};

/** A client registered at the provider. Without a secret it is a public client (PKCE only). */
export type OidcClient = {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
};

/** Rewrites the claims of the ID tokens the token endpoint answers; see `tamperIdTokens`. */
export type IdTokenTamper = {
  claims?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** `other-key`: signed with a key the provider does not publish, under the provider's key id. */
  signWith?: 'provider' | 'other-key';
};

export type OidcProviderHandle = {
  /** The issuer identifier: `http://127.0.0.1:{port}`. */
  issuer: string;
  /** The provider's own `oidc-provider` instance, for what this helper does not cover. */
  provider: Provider;
  /** The people who can sign in; a test may add or change them while the provider runs. */
  accounts: Map<string, OidcAccount>;
  /** From now on, rewrite (and re-sign) every ID token the token endpoint answers; null stops it. */
  tamperIdTokens(tamper: IdTokenTamper | null): void;
  /**
   * Plays the browser from an authorization URL to the provider's redirect back to the client:
   * follows the redirects with the provider's cookies and answers the login and consent form as the
   * account whose e-mail (or sub) is `login`, or cancels it (`cancel: true`, which answers
   * `error=access_denied`). Answers the URL the provider sends the browser back to.
   */
  signIn(authorizationUrl: string, login: string, options?: { cancel?: boolean }): Promise<URL>;
  /** How many requests each path received (`/.well-known/openid-configuration`, `/token`, `/jwks`…). */
  requests: Map<string, number>;
  close(): Promise<void>;
};

const SIGNING_ALG = 'RS256';

type Payload = Record<string, unknown> & {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: number;
};

/** The provider's storage, in memory for one provider (its own quick-start adapter says it is not for use). */
function memoryAdapter() {
  const store = new Map<string, { payload: Payload; expiresAt: number | null }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt < Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Payload, expiresIn?: number) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const key of store.keys())
        if (key.startsWith(`${this.model}:`) && live(key)?.uid === uid) return live(key);
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const key of store.keys())
        if (key.startsWith(`${this.model}:`) && live(key)?.userCode === userCode) return live(key);
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${base64url(sign('sha256', Buffer.from(input), key))}`;
}

function decodeJwt(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, claims] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as Record<string, unknown>,
  };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginPage(uid: string, clientId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1><p>Sign in to ${escapeHtml(clientId)}</p>
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label>E-mail <input name="login" type="text" autocomplete="username" autofocus></label>
<button type="submit" name="action" value="login">Sign in</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form></main></body></html>`;
}

/** Starts the provider; `close()` stops it. */
export async function startOidcProvider(options: {
  clients: OidcClient[];
  accounts: OidcAccount[];
}): Promise<OidcProviderHandle> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const kid = `test-${randomBytes(4).toString('hex')}`;
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: SIGNING_ALG, use: 'sig' };
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const requests = new Map<string, number>();
  let tamper: IdTokenTamper | null = null;

  const findAccount = (login: string): OidcAccount | undefined =>
    accounts.get(login) ??
    [...accounts.values()].find((a) => a.email?.toLowerCase() === login.trim().toLowerCase());

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: options.clients.map((client) => ({
      client_id: client.client_id,
      redirect_uris: client.redirect_uris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
      ...(client.client_secret
        ? { client_secret: client.client_secret, token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
    })),
    adapter: memoryAdapter(),
    jwks: { keys: [jwk] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ ...account }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    // Quiet in tests: the provider renders errors as a small page.
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><pre>${escapeHtml(JSON.stringify(out))}</pre>`;
    },
  };
  const provider = new Provider(issuer, configuration);

  // The token endpoint's answers pass through here: a tampered ID token is re-signed.
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (!tamper || ctx.path !== '/token' || typeof body?.id_token !== 'string') return;
    const { header, claims } = decodeJwt(body.id_token);
    const rewritten = tamper.claims ? tamper.claims({ ...claims }) : claims;
    const key = tamper.signWith === 'other-key' ? otherKey : privateKey;
    ctx.body = { ...body, id_token: signJwt(header, rewritten, key) };
  });

  const callback = provider.callback();
  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginPage(details.uid, String(details.params['client_id'] ?? '')));
      return;
    }
    const form = await readForm(req);
    if (form.get('action') === 'cancel') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled the sign-in.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const account = findAccount(form.get('login') ?? '');
    if (!account) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginPage(details.uid, String(details.params['client_id'] ?? '')));
      return;
    }
    // Consent to everything asked for, as a person pressing "Allow" would.
    const grant = new provider.Grant({
      accountId: account.sub,
      clientId: String(details.params['client_id']),
    });
    grant.addOIDCScope(String(details.params['scope'] ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? error.message : 'interaction failed');
      });
      return;
    }
    void callback(req, res);
  });

  async function signIn(authorizationUrl: string, login: string, opts: { cancel?: boolean } = {}) {
    const cookies = new Map<string, string>();
    const remember = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const index = pair!.indexOf('=');
        cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1));
      }
    };
    const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let url = new URL(authorizationUrl);
    for (let step = 0; step < 10; step++) {
      if (url.origin !== issuer) return url;
      let response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } });
      remember(response);
      if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
        await response.text();
        const body = new URLSearchParams({ login, action: opts.cancel ? 'cancel' : 'login' });
        response = await fetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        remember(response);
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`The provider answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      url = new URL(location, url);
    }
    throw new Error('The provider redirected too many times');
  }

  return {
    issuer,
    provider,
    accounts,
    requests,
    tamperIdTokens(next) {
      tamper = next;
    },
    signIn,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
