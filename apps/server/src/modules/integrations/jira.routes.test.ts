import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  INTEGRATIONS_ADMINS_ONLY,
  type Feature,
  type InitialPayload,
  type Integration,
  type IntegrationsAvailable,
  type JiraConnection,
  type JiraConnectToken,
} from '@vexil/core';
import { integrations } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { auditTrail, callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { startFakeJira, type FakeJira } from '../../../test/fake-jira';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, integrationsEnv, testClock } from '../../../test/integrations';
import { sdkFixture } from '../../../test/sdk';
import { TEST_SECRETS_KEY } from '../../../test/sso';
import { JIRA_ALREADY_CONNECTED, JIRA_REFUSED_CREDENTIALS, JIRA_TOKEN_EXPIRED } from './jira.service';

let h: Harness;
let jira: FakeJira;
let team: Team;
let fixture: Awaited<ReturnType<typeof sdkFixture>>;
const clock = testClock();

beforeAll(async () => {
  jira = await startFakeJira({ issues: { 'ABC-1': 'Checkout redesign', 'ABC-2': 'Dark mode' } });
  h = await createHarness(integrationsEnv(), { now: clock.now, integrations: FAST_INTEGRATIONS });
});
afterAll(async () => {
  await h?.close();
  await jira?.close();
});
beforeEach(async () => {
  await h.app.services.integrations.settled();
  await h.database.reset();
  clock.reset();
  jira.down(false);
  jira.comments.length = 0;
  jira.issues.set('ABC-1', 'Checkout redesign');
  team = await createTeam(h);
  fixture = await sdkFixture(team.admin.call);
  // The fixture's own changes are passed on before the test adds an integration.
  await h.app.services.integrations.settled();
});

const settled = () => h.app.services.integrations.settled();

async function connectToken(call: Caller = team.admin.call): Promise<string> {
  const res = await call('GET', '/api/v1/integrations/jira/connect-token');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<JiraConnectToken>().token;
}

function details(changes: Record<string, unknown> = {}) {
  return { baseUrl: jira.url, email: jira.email, apiToken: jira.apiToken, ...changes };
}

async function connect(call: Caller = team.admin.call): Promise<JiraConnection> {
  const res = await call('POST', '/api/v1/integrations/jira/connect', {
    token: await connectToken(call),
    ...details(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<JiraConnection>();
}

function fieldErrors(res: { json: <T>() => T }) {
  return res.json<{ errors?: { field: string; message: string }[] }>().errors;
}

function requestsTo(path: string): number {
  return jira.requests.filter((request) => request === path).length;
}

async function feature(key: string): Promise<Feature> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

describe('connecting Jira', () => {
  it('connects with a one-time token, checking the address and credentials against Jira first', async () => {
    const token = await connectToken();
    expect(token).toMatch(/^vxj_/);
    const myself = requestsTo('GET /rest/api/3/myself');
    const res = await team.admin.call('POST', '/api/v1/integrations/jira/connect', { token, ...details() });
    expect(res.statusCode, res.body).toBe(201);
    const connection = res.json<JiraConnection>();
    expect(connection).toEqual({
      id: expect.any(String),
      baseUrl: jira.url,
      email: jira.email,
      hasApiToken: true,
      member: { name: 'Test User' },
      createdDate: expect.any(String),
      lastModifiedDate: expect.any(String),
    });
    expect(requestsTo('GET /rest/api/3/myself')).toBe(myself + 1);
    expect(JSON.stringify(res.json())).not.toContain(jira.apiToken);

    const list = (await team.admin.call('GET', '/api/v1/integrations')).json<Integration[]>();
    expect(list).toEqual([
      {
        id: connection.id,
        type: 'jira',
        member: { name: 'Test User' },
        configuration: { baseUrl: jira.url },
        createdDate: expect.any(String),
      },
    ]);
    expect(
      (await team.admin.call('GET', '/api/v1/integrations/available')).json<IntegrationsAvailable>().jira,
    ).toEqual({ enabled: true, connectedId: connection.id });
    const initial = (await team.readOnly.call('GET', '/api/v1/initial')).json<InitialPayload>();
    expect(initial.organisation.settings.jiraEnabled).toBe(true);

    const [row] = await h.database.db.select().from(integrations).where(eq(integrations.id, connection.id));
    expect(JSON.stringify(row)).not.toContain(jira.apiToken);
    const box = secretBoxWithKey(Buffer.from(TEST_SECRETS_KEY, 'hex'));
    expect(box.decrypt(row!.secrets.apiToken!, `integration.apiToken:${team.admin.organisationId}`)).toBe(
      jira.apiToken,
    );
    expect((await auditTrail(team.admin.call))[0]).toMatchObject({ title: 'Jira connected' });

    // The token worked once; a second connection is refused anyway.
    const again = await team.admin.call('POST', '/api/v1/integrations/jira/connect', { token, ...details() });
    expect(again.statusCode).toBe(400);
    expect(fieldErrors(again)).toEqual([{ field: 'token', message: JIRA_TOKEN_EXPIRED }]);
    const second = await team.admin.call('POST', '/api/v1/integrations/jira/connect', {
      token: await connectToken(),
      ...details(),
    });
    expect(second.statusCode).toBe(409);
    expect(second.json<{ title: string }>().title).toBe(JIRA_ALREADY_CONNECTED);
  });

  it('says which field is wrong, and keeps the token for the next try', async () => {
    const token = await connectToken();
    const post = (changes: Record<string, unknown>) =>
      team.admin.call('POST', '/api/v1/integrations/jira/connect', { token, ...details(changes) });

    const wrongToken = await post({ apiToken: 'not-the-token' });
    expect(wrongToken.statusCode).toBe(400);
    expect(fieldErrors(wrongToken)).toEqual([{ field: 'apiToken', message: JIRA_REFUSED_CREDENTIALS }]);

    for (const host of ['127.0.0.1', '[::7f00:1]', '[64:ff9b::7f00:1]']) {
      const loopback = await post({ baseUrl: jira.url.replace('localhost', host) });
      expect(loopback.statusCode, host).toBe(400);
      expect(fieldErrors(loopback)).toEqual([
        {
          field: 'baseUrl',
          message:
            'Vexil may not send requests to this address: the address is not a public internet address.',
        },
      ]);
    }

    // Not a Jira site: said once, as one sentence (no "?." at its end).
    const notJira = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Welcome</html>');
    });
    await new Promise<void>((resolve) => notJira.listen(0, '127.0.0.1', resolve));
    try {
      const port = (notJira.address() as AddressInfo).port;
      const html = await post({ baseUrl: `http://localhost:${port}` });
      expect(html.statusCode).toBe(400);
      const message =
        'Could not use Jira at this address: the answer is not JSON: is this the address of a Jira site?';
      expect(fieldErrors(html)).toEqual([{ field: 'baseUrl', message }]);
      expect(html.json<{ title: string }>().title).toBe(message);
    } finally {
      notJira.closeAllConnections();
      await new Promise((resolve) => notJira.close(resolve));
    }

    jira.down();
    const down = await post({});
    expect(down.statusCode).toBe(400);
    expect(fieldErrors(down)![0]).toMatchObject({
      field: 'baseUrl',
      message: expect.stringMatching(/HTTP 503/),
    });
    jira.down(false);

    expect((await post({ baseUrl: 'ftp://jira.example' })).statusCode).toBe(400);
    expect((await post({})).statusCode).toBe(201);
  });

  it('refuses a token that expired, or that another admin was given', async () => {
    const other = await h.createUser(team.admin.organisationId, team.admin.domain);
    const otherCall = callerFor(h.app, await h.login(other));
    const theirs = await connectToken(otherCall);
    const res = await team.admin.call('POST', '/api/v1/integrations/jira/connect', {
      token: theirs,
      ...details(),
    });
    expect(fieldErrors(res)).toEqual([{ field: 'token', message: JIRA_TOKEN_EXPIRED }]);

    const mine = await connectToken();
    clock.advance(30 * 60 * 1000 + 1);
    const late = await team.admin.call('POST', '/api/v1/integrations/jira/connect', {
      token: mine,
      ...details(),
    });
    expect(fieldErrors(late)).toEqual([{ field: 'token', message: JIRA_TOKEN_EXPIRED }]);
    expect((await team.admin.call('GET', '/api/v1/integrations')).json()).toEqual([]);
  });

  it('is for organisation admins only', async () => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('POST', '/api/v1/integrations/jira/connect', {
        token: 'vxj_x',
        ...details(),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ title: string }>().title).toBe(INTEGRATIONS_ADMINS_ONLY);
    }
    const connection = await connect();
    for (const member of [team.editor, team.readOnly]) {
      expect((await member.call('GET', `/api/v1/integrations/jira/${connection.id}`)).statusCode).toBe(403);
      expect(
        (await member.call('PUT', `/api/v1/integrations/jira/${connection.id}`, details())).statusCode,
      ).toBe(403);
    }
    expect((await team.outsider.call('GET', `/api/v1/integrations/jira/${connection.id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('the connection page', () => {
  it('shows the connection without its API token, and keeps the token when the form leaves it out', async () => {
    const connection = await connect();
    const read = await team.admin.call('GET', `/api/v1/integrations/jira/${connection.id}`);
    expect(read.json<JiraConnection>()).toEqual(connection);

    const myself = requestsTo('GET /rest/api/3/myself');
    const kept = await team.admin.call('PUT', `/api/v1/integrations/jira/${connection.id}`, {
      baseUrl: `${jira.url}/`,
      email: jira.email,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<JiraConnection>()).toMatchObject({ baseUrl: jira.url, hasApiToken: true });
    expect(requestsTo('GET /rest/api/3/myself')).toBe(myself + 1);

    const refused = await team.admin.call('PUT', `/api/v1/integrations/jira/${connection.id}`, {
      ...details(),
      apiToken: 'wrong',
    });
    expect(refused.statusCode).toBe(400);
    expect(fieldErrors(refused)).toEqual([{ field: 'apiToken', message: JIRA_REFUSED_CREDENTIALS }]);
    expect((await auditTrail(team.admin.call))[0]).toMatchObject({ title: 'Jira connection changed' });
    expect(
      (await team.admin.call('GET', '/api/v1/integrations/jira/00000000-0000-4000-8000-000000000000'))
        .statusCode,
    ).toBe(404);
  });
});

describe('issue keys', () => {
  it('resolves a key to its title and page, remembered ten minutes, then read again', async () => {
    await connect();
    const res = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/abc-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ key: 'ABC-1', title: 'Checkout redesign', url: `${jira.url}/browse/ABC-1` });
    const reads = requestsTo('GET /rest/api/3/issue/ABC-1');
    jira.issues.set('ABC-1', 'Checkout, redesigned');
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1')).json()).toMatchObject({
      title: 'Checkout redesign',
    });
    expect(requestsTo('GET /rest/api/3/issue/ABC-1')).toBe(reads);

    clock.advance(10 * 60 * 1000 + 1);
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1')).json()).toMatchObject({
      title: 'Checkout, redesigned',
    });
    expect(requestsTo('GET /rest/api/3/issue/ABC-1')).toBe(reads + 1);
  });

  it('degrades to what was last known, else to the bare key, when Jira cannot be reached', async () => {
    await connect();
    await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1');
    jira.down();
    clock.advance(10 * 60 * 1000 + 1);
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1')).json()).toEqual({
      key: 'ABC-1',
      title: 'Checkout redesign',
      url: `${jira.url}/browse/ABC-1`,
    });
    const bare = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-2');
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual({ key: 'ABC-2', title: '', url: `${jira.url}/browse/ABC-2` });
  });

  it('answers 404 for an issue Jira does not have, and when Jira is not connected', async () => {
    const none = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1');
    expect(none.statusCode).toBe(404);
    expect(none.json<{ detail: string }>().detail).toBe('Jira is not connected.');
    await connect();
    const missing = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/XYZ-9');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ title: string }>().title).toBe(
      'Jira has no issue XYZ-9, or the connected account cannot see it.',
    );
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/not a key!')).statusCode).toBe(
      400,
    );
  });
});

describe('features and their issues', () => {
  it('comments on the issue a feature is created from, and shows the issue’s title and link', async () => {
    await connect();
    const created = await createFeature(team.admin.call, 'web', {
      name: 'New checkout',
      key: 'new-checkout',
      jiraIssueKeys: ['ABC-1'],
    });
    expect(created.jiraIssueKeys).toEqual(['ABC-1']);
    await settled();
    expect(jira.comments).toHaveLength(1);
    const [comment] = jira.comments;
    expect(comment!.issueKey).toBe('ABC-1');
    expect(comment!.body).toEqual({
      type: 'doc',
      version: 1,
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: `${team.admin.email} created the Vexil feature ` },
            {
              type: 'text',
              text: 'New checkout',
              marks: [
                {
                  type: 'link',
                  attrs: {
                    href: `http://${team.admin.domain}.vexil.test/projects/web/features/new-checkout`,
                  },
                },
              ],
            },
            { type: 'text', text: ' (new-checkout) in the project Web shop from this issue.' },
          ],
        },
      ],
    });
    expect((await feature('new-checkout')).jiraIssues).toEqual([
      { key: 'ABC-1', title: 'Checkout redesign', url: `${jira.url}/browse/ABC-1` },
    ]);
  });

  it('comments when an issue is linked (once), retrying when Jira fails for a while', async () => {
    await connect();
    jira.failNext(500, 503);
    const link = () =>
      team.admin.call('PUT', '/api/v1/features/link', {
        featureId: fixture.checkout.id,
        jiraIssueKey: 'abc-2',
      });
    const res = await link();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Feature>().jiraIssueKeys).toEqual(['ABC-2']);
    await settled();
    expect(jira.comments.map((c) => [c.issueKey, JSON.stringify(c.body)])).toEqual([
      ['ABC-2', expect.stringContaining('linked this issue to the Vexil feature ')],
    ]);
    expect((await link()).statusCode).toBe(200);
    await settled();
    expect(jira.comments).toHaveLength(1);
    expect((await feature('checkout')).jiraIssues).toEqual([
      { key: 'ABC-2', title: 'Dark mode', url: `${jira.url}/browse/ABC-2` },
    ]);
  });

  it('never fails the feature’s write when Jira is down; the feature shows the bare key', async () => {
    await connect();
    jira.down();
    const created = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'Offline',
      key: 'offline',
      jiraIssueKeys: ['ABC-1'],
    });
    expect(created.statusCode, created.body).toBe(201);
    await settled();
    expect(jira.comments).toEqual([]);
    expect((await feature('offline')).jiraIssues).toEqual([
      { key: 'ABC-1', title: '', url: `${jira.url}/browse/ABC-1` },
    ]);
  });

  it('refreshes a title in the background once it is ten minutes old', async () => {
    await connect();
    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search', jiraIssueKeys: ['ABC-1'] });
    await settled();
    jira.issues.set('ABC-1', 'Search, renamed');
    clock.advance(10 * 60 * 1000 + 1);
    // This read shows what is known and asks Jira again after the answer.
    expect((await feature('search')).jiraIssues[0]!.title).toBe('Checkout redesign');
    await settled();
    expect((await feature('search')).jiraIssues[0]!.title).toBe('Search, renamed');
  });

  it('forgets the titles and links when Jira is removed, and says Jira is off in the initial payload', async () => {
    const connection = await connect();
    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search', jiraIssueKeys: ['ABC-1'] });
    await settled();
    expect((await team.admin.call('DELETE', `/api/v1/integrations/${connection.id}`)).statusCode).toBe(204);
    expect((await feature('search')).jiraIssues).toEqual([{ key: 'ABC-1', title: '', url: '' }]);
    const initial = (await team.readOnly.call('GET', '/api/v1/initial')).json<InitialPayload>();
    expect(initial.organisation.settings.jiraEnabled).toBe(false);
    const filters = await team.admin.call('PUT', `/api/v1/integrations/${(await connect()).id}/filters`, {});
    expect(filters.statusCode).toBe(400);
  });
});

describe('with the jira-integration flag off', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await createHarness({ ...integrationsEnv(), VEXIL_UI_FLAGS: 'jira-integration=off' });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('cannot be connected and resolves no issue', async () => {
    const admin = await off.createOrganisation();
    const call = callerFor(off.app, await off.login(admin));
    expect((await call('GET', '/api/v1/integrations/jira/connect-token')).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/integrations/jira/issues/ABC-1')).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/integrations/available')).json<IntegrationsAvailable>().jira).toEqual({
      enabled: false,
      connectedId: null,
    });
  });
});
