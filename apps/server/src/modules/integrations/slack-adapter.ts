import { CHAT_INTEGRATION_SCOPE } from '@vexil/core';
import { OutgoingUrlError, type OutgoingFetch } from '../../lib/outgoing-url';

/*
 * The chat service, Slack, as far as Vexil uses it (docs/adr/0017-integrations-and-outgoing-requests.md):
 *
 * - OAuth v2 with the `incoming-webhook` scope: the authorisation page (SLACK_OAUTH_URL), and the code
 *   exchange `POST {SLACK_API_URL}/oauth.v2.access` (form body `code` and `redirect_uri`, the app's
 *   client id and secret by HTTP Basic authentication), answered `{ok, team, incoming_webhook: {channel,
 *   channel_id, configuration_url, url}}` or `{ok: false, error}`;
 * - posting to the incoming webhook the exchange gave: a JSON body `{text, blocks}`, answered 200 `ok`,
 *   or 4xx with a reason (`invalid_payload`, `channel_not_found`, `channel_is_archived`…), 429 with
 *   `Retry-After`, or 5xx.
 *
 * Every request goes through the outgoing-URL guard (lib/outgoing-url.ts).
 */

/** The Slack app of this server (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET). */
export type SlackApp = { clientId: string; clientSecret: string };

/** What the code exchange gives: the channel to post to and its webhook (a bearer credential). */
export type SlackInstallation = {
  channel: string;
  channelId: string | null;
  configurationUrl: string | null;
  webhookUrl: string;
  teamId: string | null;
  teamName: string | null;
};

/** A chat message: the fallback text and its layout blocks. */
export type SlackMessage = { text: string; blocks: unknown[] };

/** One post's outcome: sent, or why not and whether trying again may help. */
export type PostOutcome =
  { ok: true } | { ok: false; retry: boolean; reason: string; retryAfterMs?: number | undefined };

/** Why the code exchange failed; `reason` names Slack's error code or the failure, never a secret. */
export class SlackError extends Error {
  constructor(readonly reason: string) {
    super(`Slack: ${reason}`);
    this.name = 'SlackError';
  }
}

/** Seconds of a `Retry-After` header as milliseconds, when it is a number. */
export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** A failed request (no answer) as a retryable outcome, in words that name no address. */
export function failureReason(error: unknown): string {
  for (let at = error; at; at = (at as { cause?: unknown }).cause) {
    if (at instanceof OutgoingUrlError) return `refused: ${at.message}`;
    if (at instanceof Error && (at.name === 'TimeoutError' || at.name === 'AbortError'))
      return 'no answer in time';
  }
  return 'could not connect';
}

export type SlackAdapter = ReturnType<typeof createSlackAdapter>;

export function createSlackAdapter(deps: {
  fetch: OutgoingFetch;
  app: SlackApp | null;
  /** SLACK_API_URL, without a trailing slash. */
  apiUrl: string;
  /** SLACK_OAUTH_URL. */
  oauthUrl: string;
}) {
  const { fetch, app } = deps;

  function requireApp(): SlackApp {
    if (!app) throw new SlackError('not configured');
    return app;
  }

  return {
    configured: app !== null,

    /** The authorisation page the admin's browser is sent to. */
    authorizeUrl(state: string, redirectUri: string): string {
      const url = new URL(deps.oauthUrl);
      url.searchParams.set('client_id', requireApp().clientId);
      url.searchParams.set('scope', CHAT_INTEGRATION_SCOPE);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.href;
    },

    /** `oauth.v2.access`: the code the callback received, for the channel and its incoming webhook. */
    async exchangeCode(code: string, redirectUri: string): Promise<SlackInstallation> {
      const { clientId, clientSecret } = requireApp();
      let response: Response;
      try {
        response = await fetch(`${deps.apiUrl}/oauth.v2.access`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ code, redirect_uri: redirectUri }).toString(),
        });
      } catch (error) {
        throw new SlackError(failureReason(error));
      }
      let body: {
        ok?: unknown;
        error?: unknown;
        team?: { id?: unknown; name?: unknown } | null;
        incoming_webhook?: {
          channel?: unknown;
          channel_id?: unknown;
          configuration_url?: unknown;
          url?: unknown;
        };
      };
      try {
        body = (await response.json()) as typeof body;
      } catch {
        throw new SlackError(`HTTP ${response.status}`);
      }
      if (body.ok !== true) throw new SlackError(typeof body.error === 'string' ? body.error : 'not ok');
      const hook = body.incoming_webhook;
      if (!hook || typeof hook.url !== 'string' || typeof hook.channel !== 'string')
        throw new SlackError('no incoming webhook in the answer');
      const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
      return {
        channel: hook.channel,
        channelId: text(hook.channel_id),
        configurationUrl: text(hook.configuration_url),
        webhookUrl: hook.url,
        teamId: text(body.team?.id),
        teamName: text(body.team?.name),
      };
    },

    /** Posts one message to an incoming webhook. */
    async post(webhookUrl: string, message: SlackMessage): Promise<PostOutcome> {
      let response: Response;
      try {
        response = await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
        });
      } catch (error) {
        return { ok: false, retry: true, reason: failureReason(error) };
      }
      if (response.ok) return { ok: true };
      const said = (await response.text().catch(() => '')).slice(0, 100).replace(/[^\w.-]/g, '');
      const reason = `HTTP ${response.status}${said ? ` ${said}` : ''}`;
      if (response.status === 429 || response.status >= 500)
        return {
          ok: false,
          retry: true,
          reason,
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
        };
      return { ok: false, retry: false, reason };
    },
  };
}
