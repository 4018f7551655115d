import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  INTEGRATIONS_ADMINS_ONLY,
  type InitialPayload,
  type Integration,
  type IntegrationsAvailable,
  type JiraConnection,
} from '@vexil/core';
import { integrations } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { auditTrail, callerFor } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { integrationsEnv } from '../../../test/integrations';
import { TEST_SECRETS_KEY } from '../../../test/sso';
import { JIRA_ALREADY_CONNECTED, JIRA_REFUSED_CREDENTIALS, JIRA_TOKEN_EXPIRED } from './jira.service';
import {
  setUpJiraRoutes,
  h,
  jira,
  team,
  clock,
  connectToken,
  details,
  connect,
  fieldErrors,
  requestsTo,
} from './jira.routes.fixture';

setUpJiraRoutes();

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
