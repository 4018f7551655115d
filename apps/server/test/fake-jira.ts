import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for the parts of Jira Cloud's REST API v3 the issue-tracker integration uses, spoken
 * as Atlassian documents them (https://developer.atlassian.com/cloud/jira/platform/rest/v3/):
 * basic authentication with an account's e-mail and API token (401 otherwise);
 *
 * - `GET /rest/api/3/myself`: `{accountId, emailAddress, displayName}`;
 * - `GET /rest/api/3/issue/{key}?fields=summary`: `{id, key, self, fields: {summary}}`, or 404
 *   `{errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {}}`;
 * - `POST /rest/api/3/issue/{key}/comment` with `{body}` in the Atlassian Document Format (a `doc`
 *   of version 1): 201 with the comment; 400 when the body is not a document.
 *
 * `down()` makes every request fail with 503, as a site under maintenance does; `failNext` scripts the
 * answers of the next requests.
 */

export type JiraComment = { issueKey: string; body: { type: string; version: number; content: unknown[] } };

export type FakeJira = {
  /** `http://localhost:{port}`: the Jira site's base URL. */
  url: string;
  email: string;
  apiToken: string;
  /** Issues by key: their summary. */
  issues: Map<string, string>;
  comments: JiraComment[];
  /** Every request, as `METHOD /path`. */
  requests: string[];
  /** From now on, every request is answered 503 (or again normally with `down(false)`). */
  down(isDown?: boolean): void;
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeJira(
  options: { email?: string; apiToken?: string; issues?: Record<string, string> } = {},
): Promise<FakeJira> {
  const email = options.email ?? 'bot@acme.test';
  const apiToken = options.apiToken ?? 'jira-api-t0ken';
  const issues = new Map(Object.entries(options.issues ?? {}));
  const comments: JiraComment[] = [];
  const requests: string[] = [];
  const failures: number[] = [];
  let isDown = false;
  let base = '';

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      requests.push(`${req.method} ${url.pathname}`);
      const raw = await readBody(req);
      if (isDown) return json(res, 503, { errorMessages: ['Jira is under maintenance'] });
      const failure = failures.shift();
      if (failure) return json(res, failure, { errorMessages: ['Scripted failure'] });
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (!basic || Buffer.from(basic[1]!, 'base64').toString('utf8') !== `${email}:${apiToken}`) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="protected-area"' });
        return res.end('Client must be authenticated to access this resource.');
      }
      if (req.method === 'GET' && url.pathname === '/rest/api/3/myself')
        return json(res, 200, {
          accountId: '5b10ac8d82e05b22cc7d4ef5',
          emailAddress: email,
          displayName: 'Vexil Bot',
        });
      const issue = /^\/rest\/api\/3\/issue\/([^/]+)(\/comment)?$/.exec(url.pathname);
      if (issue) {
        const key = decodeURIComponent(issue[1]!);
        const summary = issues.get(key);
        if (summary === undefined)
          return json(res, 404, {
            errorMessages: ['Issue does not exist or you do not have permission to see it.'],
            errors: {},
          });
        if (req.method === 'GET' && !issue[2])
          return json(res, 200, {
            id: '10001',
            key,
            self: `${base}/rest/api/3/issue/10001`,
            fields: url.searchParams.get('fields') === 'summary' ? { summary } : { summary, status: {} },
          });
        if (req.method === 'POST' && issue[2]) {
          let body: { body?: JiraComment['body'] };
          try {
            body = JSON.parse(raw) as typeof body;
          } catch {
            return json(res, 400, { errorMessages: ['Unexpected character'], errors: {} });
          }
          const doc = body.body;
          if (!doc || doc.type !== 'doc' || doc.version !== 1 || !Array.isArray(doc.content))
            return json(res, 400, { errorMessages: [], errors: { comment: 'Comment body is not valid!' } });
          comments.push({ issueKey: key, body: doc });
          return json(res, 201, {
            id: String(10000 + comments.length),
            body: doc,
            created: new Date().toISOString(),
          });
        }
      }
      return json(res, 404, { errorMessages: ['Not found'], errors: {} });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    email,
    apiToken,
    issues,
    comments,
    requests,
    down: (value = true) => {
      isDown = value;
    },
    failNext: (...statuses) => {
      failures.push(...statuses);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
