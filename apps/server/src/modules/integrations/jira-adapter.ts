import type { OutgoingFetch } from '../../lib/outgoing-url';
import { failureReason, retryAfterMs } from './slack-adapter';

/*
 * The issue tracker, Jira, through its REST API v3 (docs/adr/0017-integrations-and-outgoing-requests.md),
 * with basic authentication by the account's e-mail and an API token:
 *
 * - `GET {baseUrl}/rest/api/3/myself`: checks the credentials when a connection is saved;
 * - `GET {baseUrl}/rest/api/3/issue/{key}?fields=summary`: `{key, fields: {summary}}` for an issue's
 *   title; its page is `{baseUrl}/browse/{key}`;
 * - `POST {baseUrl}/rest/api/3/issue/{key}/comment` with `{body}` in the Atlassian Document Format:
 *   the comment with a link back to the feature.
 *
 * The base URL is the admin's: every request goes through the outgoing-URL guard.
 */

/** One Jira site and the account Vexil acts as. */
export type JiraCredentials = { baseUrl: string; email: string; apiToken: string };

/** An issue as a feature shows it. */
export type JiraIssueSummary = { key: string; title: string; url: string };

/**
 * Why a call to Jira failed: `unauthorised` (401/403), `not-found` (404: no such issue, or hidden from
 * the account), `unreachable` (no answer, refused address, 5xx or 429: trying again may help) or
 * `failed` (any other answer). `detail` names no credential.
 */
export class JiraError extends Error {
  constructor(
    readonly kind: 'unauthorised' | 'not-found' | 'unreachable' | 'failed',
    readonly detail: string,
    readonly retryAfterMs?: number,
  ) {
    super(`Jira: ${detail}`);
    this.name = 'JiraError';
  }
}

/** `{baseUrl}/{path}`, keeping the base URL's own path (a Jira served under /jira). */
function endpoint(baseUrl: string, path: string): string {
  return new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
}

/** An issue's page on the site. */
export function browseUrl(baseUrl: string, key: string): string {
  return endpoint(baseUrl, `browse/${encodeURIComponent(key)}`);
}

/** A comment in the Atlassian Document Format: one paragraph of text runs, some of them links. */
export function commentDocument(runs: { text: string; href?: string }[]) {
  return {
    type: 'doc',
    version: 1,
    content: [
      {
        type: 'paragraph',
        content: runs.map((run) =>
          run.href
            ? { type: 'text', text: run.text, marks: [{ type: 'link', attrs: { href: run.href } }] }
            : { type: 'text', text: run.text },
        ),
      },
    ],
  };
}

export type JiraAdapter = ReturnType<typeof createJiraAdapter>;

export function createJiraAdapter(deps: { fetch: OutgoingFetch }) {
  async function call(
    credentials: JiraCredentials,
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<unknown> {
    const authorization = `Basic ${Buffer.from(`${credentials.email}:${credentials.apiToken}`).toString('base64')}`;
    let response: Response;
    try {
      response = await deps.fetch(endpoint(credentials.baseUrl, path), {
        method: init.method ?? 'GET',
        headers: {
          authorization,
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? null : JSON.stringify(init.body),
      });
    } catch (error) {
      throw new JiraError('unreachable', failureReason(error));
    }
    const status = response.status;
    if (status === 401 || status === 403)
      throw new JiraError('unauthorised', `Jira refused the e-mail and API token (HTTP ${status})`);
    if (status === 404)
      throw new JiraError('not-found', 'Jira has no such issue, or the account cannot see it');
    if (status === 429 || status >= 500)
      throw new JiraError('unreachable', `HTTP ${status}`, retryAfterMs(response.headers.get('retry-after')));
    if (status >= 300 && status < 400)
      throw new JiraError('failed', `Jira answered with a redirect (HTTP ${status}); check the address`);
    if (!response.ok) throw new JiraError('failed', `HTTP ${status}`);
    try {
      return await response.json();
    } catch {
      throw new JiraError('failed', 'the answer is not JSON: is this the address of a Jira site?');
    }
  }

  return {
    /** Checks the site and the credentials: the account's display name. */
    async myself(credentials: JiraCredentials): Promise<{ displayName: string }> {
      const body = (await call(credentials, 'rest/api/3/myself')) as { displayName?: unknown };
      if (!body || typeof body !== 'object')
        throw new JiraError(
          'failed',
          'the answer is not a Jira account: is this the address of a Jira site?',
        );
      return { displayName: typeof body.displayName === 'string' ? body.displayName : '' };
    },

    /** An issue's title and page. */
    async issue(credentials: JiraCredentials, key: string): Promise<JiraIssueSummary> {
      const body = (await call(
        credentials,
        `rest/api/3/issue/${encodeURIComponent(key)}?fields=summary`,
      )) as { key?: unknown; fields?: { summary?: unknown } };
      const summary = body?.fields?.summary;
      if (typeof summary !== 'string') throw new JiraError('failed', 'the answer carries no issue summary');
      const issueKey = typeof body.key === 'string' && body.key ? body.key : key;
      return { key: issueKey, title: summary, url: browseUrl(credentials.baseUrl, issueKey) };
    },

    /** Adds a comment (an Atlassian Document Format body) to an issue. */
    async comment(credentials: JiraCredentials, key: string, body: unknown): Promise<void> {
      await call(credentials, `rest/api/3/issue/${encodeURIComponent(key)}/comment`, {
        method: 'POST',
        body: { body },
      });
    },
  };
}
