import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTHORITIES, INTEGRATIONS_ADMINS_ONLY, type IntegrationsAvailable } from '@vexil/core';
import { integrations, users } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { auditTrail, callerFor } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import {
  FAST_INTEGRATIONS,
  approve,
  callback,
  installSlack,
  installUrl,
  integrationsEnv,
} from '../../../test/integrations';
import { TEST_SECRETS_KEY } from '../../../test/sso';
import { signState } from './install-state';
import { setUpIntegrationRoutes, h, slack, team, clock, list } from './integrations.routes.fixture';

setUpIntegrationRoutes();

describe('permissions', () => {
  it('refuses everyone but organisation admins with the product’s sentence', async () => {
    const installed = await installSlack(h, team.admin.call);
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      for (const [method, url, body] of [
        ['GET', '/api/v1/integrations'],
        ['GET', '/api/v1/integrations/available'],
        ['GET', '/api/v1/integrations/slack/install'],
        ['DELETE', `/api/v1/integrations/${installed.id}`],
        ['PUT', `/api/v1/integrations/${installed.id}/filters`, { events: ['feature.toggled'] }],
        ['GET', '/api/v1/integrations/jira/connect-token'],
      ] as const) {
        const res = await member.call(method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json<{ title: string }>().title).toBe(INTEGRATIONS_ADMINS_ONLY);
      }
    }
    expect(await list()).toHaveLength(1);
  });

  it('keeps each organisation’s integrations to itself', async () => {
    const installed = await installSlack(h, team.admin.call);
    expect(await list(team.outsider.call)).toEqual([]);
    expect((await team.outsider.call('DELETE', `/api/v1/integrations/${installed.id}`)).statusCode).toBe(404);
    const filters = await team.outsider.call('PUT', `/api/v1/integrations/${installed.id}/filters`, {});
    expect(filters.statusCode).toBe(404);
    expect(await list()).toHaveLength(1);
  });
});

describe('adding Slack (OAuth v2, scope incoming-webhook)', () => {
  it('sends the admin to Slack’s authorisation page and stores the channel and its webhook, encrypted', async () => {
    const available = await team.admin.call('GET', '/api/v1/integrations/available');
    expect(available.json<IntegrationsAvailable>()).toEqual({
      slack: { configured: true },
      jira: { enabled: true, connectedId: null },
    });
    const url = await installUrl(team.admin.call);
    expect(`${url.origin}${url.pathname}`).toBe(slack.oauthUrl);
    expect(url.searchParams.get('client_id')).toBe(slack.clientId);
    expect(url.searchParams.get('scope')).toBe('incoming-webhook');
    expect(url.searchParams.get('redirect_uri')).toBe('http://vexil.test/api/v1/integrations/slack/callback');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);

    const location = await callback(h, await approve(url));
    expect(location).toBe('http://vexil.test/admin/integrations?installed=slack');
    expect(slack.exchanges).toEqual([{ code: expect.any(String), ok: true }]);
    const [installed] = await list();
    expect(installed).toEqual({
      id: expect.any(String),
      type: 'slack',
      member: { name: 'Test User' },
      configuration: { incomingWebhook: { channel: '#releases' }, teamName: 'Acme' },
      filters: { projectKeys: [], environmentKeys: [], events: [] },
      createdDate: expect.any(String),
    });

    const [row] = await h.database.db.select().from(integrations).where(eq(integrations.id, installed!.id));
    const stored = row!.secrets.webhookUrl!;
    expect(stored).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(slack.hooks().at(-1)!);
    const box = secretBoxWithKey(Buffer.from(TEST_SECRETS_KEY, 'hex'));
    expect(box.decrypt(stored, `integration.webhookUrl:${team.admin.organisationId}`)).toBe(
      `${slack.url}${slack.hooks().at(-1)!}`,
    );
    expect((await auditTrail(team.admin.call))[0]).toMatchObject({
      title: 'Slack integration added',
      description: expect.stringContaining('`#releases`'),
    });
  });

  it('refuses a forged state: altered, or signed with another key, without asking Slack', async () => {
    const url = await installUrl(team.admin.call);
    const back = await approve(url);
    const [payload, signature] = back.searchParams.get('state')!.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...claims, o: team.outsider.organisationId })).toString(
      'base64url',
    );
    const forgeries = [
      `${altered}.${signature}`,
      signState(randomBytes(32), {
        organisationId: team.admin.organisationId,
        userId: team.admin.id,
        expiresAt: new Date(Date.now() + 60_000),
      }).state,
      'not-a-state',
      '',
    ];
    for (const state of forgeries) {
      const forged = new URL(back);
      forged.searchParams.set('state', state);
      expect(await callback(h, forged)).toBe('http://vexil.test/admin/integrations?error=state');
    }
    expect(slack.exchanges).toEqual([]);
    expect(await list()).toEqual([]);
    expect(await list(team.outsider.call)).toEqual([]);
  });

  it('refuses a replayed state: it works once', async () => {
    const back = await approve(await installUrl(team.admin.call));
    expect(await callback(h, back)).toBe('http://vexil.test/admin/integrations?installed=slack');
    expect(await callback(h, back)).toBe('http://vexil.test/admin/integrations?error=state');
    expect(slack.exchanges).toHaveLength(1);
    expect(await list()).toHaveLength(1);
  });

  it('refuses a state after its ten minutes', async () => {
    const back = await approve(await installUrl(team.admin.call));
    clock.advance(10 * 60 * 1000 + 1);
    expect(await callback(h, back)).toBe('http://vexil.test/admin/integrations?error=state');
    expect(slack.exchanges).toEqual([]);
    expect(await list()).toEqual([]);
  });

  it('says so when the admin cancels at Slack, when Slack refuses the code, or when the admin is no longer one', async () => {
    slack.denyNext();
    expect(await callback(h, await approve(await installUrl(team.admin.call)))).toBe(
      'http://vexil.test/admin/integrations?error=denied',
    );

    const bad = await approve(await installUrl(team.admin.call));
    bad.searchParams.set('code', 'not-a-code-slack-gave');
    expect(await callback(h, bad)).toBe('http://vexil.test/admin/integrations?error=failed');
    expect(slack.exchanges).toEqual([{ code: 'not-a-code-slack-gave', ok: false }]);

    const later = await approve(await installUrl(team.admin.call));
    await h.database.db
      .update(users)
      .set({ authorities: [AUTHORITIES.ROLE_ORGANISATION_EDITOR] })
      .where(eq(users.id, team.admin.id));
    expect(await callback(h, later)).toBe('http://vexil.test/admin/integrations?error=forbidden');
    expect(slack.exchanges).toHaveLength(1);
    const [row] = await h.database.db.select().from(integrations);
    expect(row).toBeUndefined();
  });

  it('brings the admin back to the organisation’s sub-domain when the install began there', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/v1/integrations/slack/install',
      headers: {
        host: `${team.admin.domain}.vexil.test`,
        authorization: `Bearer ${await h.login(team.admin)}`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const back = await approve(new URL(res.json<{ url: string }>().url));
    expect(await callback(h, back)).toBe(
      `http://${team.admin.domain}.vexil.test/admin/integrations?installed=slack`,
    );
  });
});

describe('without a Slack app', () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await createHarness(integrationsEnv(), { integrations: FAST_INTEGRATIONS });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('says Slack cannot be added, and why', async () => {
    const admin = await bare.createOrganisation();
    const call = callerFor(bare.app, await bare.login(admin));
    expect((await call('GET', '/api/v1/integrations/available')).json<IntegrationsAvailable>()).toMatchObject(
      {
        slack: { configured: false },
      },
    );
    const res = await call('GET', '/api/v1/integrations/slack/install');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ title: string }>().title).toMatch(/Slack is not configured on this server/);
  });
});

describe('with the integrations flag off', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await createHarness({ ...integrationsEnv(slack), VEXIL_UI_FLAGS: 'integrations=off' });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('answers 404 as if the screen did not exist', async () => {
    const admin = await off.createOrganisation();
    const call = callerFor(off.app, await off.login(admin));
    for (const url of [
      '/api/v1/integrations',
      '/api/v1/integrations/slack/install',
      '/api/v1/projects/x/webhooks',
    ])
      expect((await call('GET', url)).statusCode, url).toBe(404);
  });
});
