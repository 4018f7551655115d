import * as client from 'openid-client';
import { OutgoingUrlError, type OutgoingFetch } from '../../lib/outgoing-url';

/*
 * The OpenID Connect relying party, through openid-client (discovery, PKCE, state, nonce, the code
 * exchange and the ID token's checks: signature, issuer, audience, nonce, expiry). Every request it
 * makes to the identity provider goes through the outgoing-URL guard (lib/outgoing-url.ts).
 */

/** What single sign-on needs to know of a connection to talk to its identity provider. */
export type OidcConnection = {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Changes whenever the connection does: a cached configuration of an older version is not used. */
  version: string;
};

/** The person the identity provider vouched for. */
export type OidcIdentity = {
  /** The ID token's issuer (`iss`, checked against the connection's): with `subject`, who this is. */
  issuer: string;
  subject: string;
  email: string | null;
  /** True only when the provider asserts `email_verified: true`; a missing claim is false. */
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
};

/**
 * Why talking to the identity provider failed: `unavailable` (it could not be reached, or answered
 * with a server error) or `invalid` (its answer was refused by the checks). `detail` is safe to show
 * to the admin who configured the issuer: it names no internal address and quotes nothing received.
 */
export class OidcError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'invalid',
    readonly detail: string,
    /** A code for the logs (the library's error code or class), never a value received. */
    readonly code: string,
  ) {
    super(detail);
    this.name = 'OidcError';
  }
}

/** How long one request to the identity provider may take. */
const TIMEOUT_SECONDS = 10;
/** How long a discovered configuration (and the keys it fetched) is reused. */
const CACHE_MS = 10 * 60 * 1000;

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at && chain.length < 8; at = (at as { cause?: unknown }).cause) chain.push(at);
  return chain;
}

/** The library's error code, or the error's class, for the logs. */
function codeOf(error: unknown): string {
  for (const at of causes(error)) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
  }
  return error instanceof Error ? error.name : 'unknown';
}

/** Turns anything thrown while talking to the provider into an {@link OidcError}. */
export function toOidcError(error: unknown): OidcError {
  if (error instanceof OidcError) return error;
  const chain = causes(error);
  const code = codeOf(error);
  const refused = chain.find((at): at is OutgoingUrlError => at instanceof OutgoingUrlError);
  if (refused) return new OidcError('unavailable', refused.message, 'OUTGOING_URL_REFUSED');
  if (chain.some((at) => at instanceof Error && (at.name === 'TimeoutError' || at.name === 'AbortError')))
    return new OidcError('unavailable', `it did not answer within ${TIMEOUT_SECONDS} seconds`, code);
  if (chain.some((at) => at instanceof TypeError && /fetch failed/i.test(at.message)))
    return new OidcError('unavailable', 'it could not be reached', code);
  // The library's errors carry the provider's answer (a Response, or a body error with its status).
  const status = chain
    .map((at) => {
      const answer = at as { status?: unknown; response?: { status?: unknown } };
      return typeof answer.status === 'number' ? answer.status : answer.response?.status;
    })
    .find((value): value is number => typeof value === 'number');
  if (status !== undefined && status >= 500)
    return new OidcError('unavailable', `it answered with HTTP status ${status}`, code);
  if (status !== undefined && status !== 200)
    return new OidcError('invalid', `it answered with HTTP status ${status}`, code);
  switch (code) {
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
      return new OidcError(
        'invalid',
        'its discovery document names a different issuer (check the URL exactly, including any trailing slash)',
        code,
      );
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
    case 'OAUTH_PARSE_ERROR':
      return new OidcError('invalid', 'its answer is not an OpenID Connect discovery document', code);
    default:
      return new OidcError('invalid', 'its answer could not be verified', code);
  }
}

/** The secrets of one sign-in: state (CSRF), nonce (ID token replay) and the PKCE code verifier. */
export function newSignInSecrets(): { state: string; nonce: string; codeVerifier: string } {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

/**
 * The relying party for every organisation: discovers each connection's provider once (cached for
 * ten minutes per connection version, keys included), builds authorization requests and checks the
 * answers. `allowHttp` lets a provider be reached over plain http (a private network's); otherwise
 * the issuer and its endpoints must use https.
 */
export function createOidcClient(deps: { fetch: OutgoingFetch; allowHttp: boolean; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const cache = new Map<string, { version: string; config: client.Configuration; expiresAt: number }>();

  const customFetch: client.CustomFetch = (url, options) =>
    deps.fetch(url, {
      method: options.method,
      headers: options.headers,
      body: options.body as string | URLSearchParams | null | undefined,
      signal: options.signal ?? null,
    });

  /** The client authentication the provider supports, preferring HTTP Basic (the specification's default). */
  function authenticationFor(metadata: client.ServerMetadata, secret: string | null): client.ClientAuth {
    if (!secret) return client.None();
    const supported = metadata.token_endpoint_auth_methods_supported;
    if (!supported || supported.includes('client_secret_basic')) return client.ClientSecretBasic(secret);
    if (supported.includes('client_secret_post')) return client.ClientSecretPost(secret);
    return client.ClientSecretBasic(secret);
  }

  function assertUsable(metadata: client.ServerMetadata) {
    const endpoints = [metadata.authorization_endpoint, metadata.token_endpoint, metadata.jwks_uri];
    if (endpoints.some((endpoint) => typeof endpoint !== 'string'))
      throw new OidcError(
        'invalid',
        'its discovery document lacks an authorization, token or keys endpoint',
        'INCOMPLETE_METADATA',
      );
    for (const endpoint of endpoints as string[]) {
      const protocol = URL.canParse(endpoint) ? new URL(endpoint).protocol : null;
      if (protocol !== 'https:' && !(deps.allowHttp && protocol === 'http:'))
        throw new OidcError('invalid', 'its endpoints must be https addresses', 'INSECURE_ENDPOINT');
    }
    const methods = metadata.code_challenge_methods_supported;
    if (methods && !methods.includes('S256'))
      throw new OidcError('invalid', 'it does not support PKCE with S256', 'NO_PKCE_S256');
  }

  /** Reads the provider's discovery document and answers a configuration for this client. */
  async function discover(connection: OidcConnection): Promise<client.Configuration> {
    const execute = [
      client.enableNonRepudiationChecks,
      ...(deps.allowHttp ? [client.allowInsecureRequests] : []),
    ];
    try {
      const discovered = await client.discovery(
        new URL(connection.issuer),
        connection.clientId,
        undefined,
        client.None(),
        {
          [client.customFetch]: customFetch,
          execute,
          timeout: TIMEOUT_SECONDS,
        },
      );
      const metadata = discovered.serverMetadata();
      assertUsable(metadata);
      const config = new client.Configuration(
        metadata,
        connection.clientId,
        connection.clientSecret ? { client_secret: connection.clientSecret } : undefined,
        authenticationFor(metadata, connection.clientSecret),
      );
      config[client.customFetch] = customFetch;
      config.timeout = TIMEOUT_SECONDS;
      for (const run of execute) run(config);
      return config;
    } catch (error) {
      throw toOidcError(error);
    }
  }

  async function configuration(key: string, connection: OidcConnection): Promise<client.Configuration> {
    const at = now().getTime();
    const cached = cache.get(key);
    if (cached && cached.version === connection.version && cached.expiresAt > at) return cached.config;
    const config = await discover(connection);
    cache.set(key, { version: connection.version, config, expiresAt: at + CACHE_MS });
    return config;
  }

  return {
    /** Reads the discovery document of a connection about to be saved; throws {@link OidcError}. */
    async check(connection: Omit<OidcConnection, 'version'>): Promise<void> {
      await discover({ ...connection, version: '' });
    },

    /** The provider's authorization URL for a new sign-in (scope `openid email profile`, PKCE S256). */
    async authorizationUrl(
      key: string,
      connection: OidcConnection,
      request: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
    ): Promise<URL> {
      const config = await configuration(key, connection);
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: request.state,
        nonce: request.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /**
     * Exchanges the code of the provider's answer (`callbackUrl`, the redirect URI with the answer's
     * query) and checks the ID token: signature, issuer, audience, nonce and times. The e-mail and
     * names come from the ID token, or from the UserInfo endpoint when the token carries no e-mail.
     */
    async identify(
      key: string,
      connection: OidcConnection,
      callbackUrl: URL,
      checks: { state: string; nonce: string; codeVerifier: string },
    ): Promise<OidcIdentity> {
      try {
        const config = await configuration(key, connection);
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        });
        let claims: Record<string, unknown> = { ...tokens.claims() };
        const userinfo = config.serverMetadata().userinfo_endpoint;
        if (typeof claims['email'] !== 'string' && userinfo && tokens.access_token) {
          const info = await client.fetchUserInfo(config, tokens.access_token, String(claims['sub']));
          claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
        }
        const text = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : null);
        const verified = claims['email_verified'];
        return {
          issuer: String(claims['iss']),
          subject: String(claims['sub']),
          email: text('email'),
          // Only an explicit `true` (some providers send the string): a missing claim vouches for nothing.
          emailVerified: verified === true || verified === 'true',
          givenName: text('given_name'),
          familyName: text('family_name'),
          name: text('name'),
        };
      } catch (error) {
        throw toOidcError(error);
      }
    },
  };
}
