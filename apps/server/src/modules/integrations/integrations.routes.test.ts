import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  AUTHORITIES,
  INTEGRATIONS_ADMINS_ONLY,
  type Feature,
  type Integration,
  type IntegrationsAvailable,
} from '@vexil/core';
import { integrations, users } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { auditTrail, callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { startFakeSlack, type FakeSlack } from '../../../test/fake-slack';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import {
  FAST_INTEGRATIONS,
  approve,
  callback,
  installSlack,
  installUrl,
  integrationsEnv,
  testClock,
} from '../../../test/integrations';
import { saveControl, sdkFixture } from '../../../test/sdk';
import { TEST_SECRETS_KEY } from '../../../test/sso';
import { signState } from './install-state';

let h: Harness;
let slack: FakeSlack;
let team: Team;
let fixture: Awaited<ReturnType<typeof sdkFixture>>;
const clock = testClock();

beforeAll(async () => {
  slack = await startFakeSlack();
  h = await createHarness(integrationsEnv(slack), { now: clock.now, integrations: FAST_INTEGRATIONS });
});
afterAll(async () => {
  await h?.close();
  await slack?.close();
});
beforeEach(async () => {
  // What a test left on its way (a post, a retry) lands before the next one starts.
  await h.app.services.integrations.settled();
  await h.database.reset();
  clock.reset();
  slack.posts.length = 0;
  slack.exchanges.length = 0;
  team = await createTeam(h);
  fixture = await sdkFixture(team.admin.call);
  // The fixture's own changes are passed on before the test adds an integration.
  await h.app.services.integrations.settled();
});

const settled = () => h.app.services.integrations.settled();

async function list(call: Caller = team.admin.call): Promise<Integration[]> {
  const res = await call('GET', '/api/v1/integrations');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Integration[]>();
}

async function toggle(feature: Feature, environmentKey: string, enabled: boolean) {
  const control = feature.controls[environmentKey]!;
  const res = await team.admin.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, { enabled });
  expect(res.statusCode, res.body).toBe(200);
}

/** The feature as it is now (its controls' versions move with each change). */
async function reload(feature: Feature): Promise<Feature> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${feature.key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

function texts(): string[] {
  return slack.posts.map((post) => post.body.text ?? '');
}

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

describe('posting changes to the channel', () => {
  it('tells who changed what, where, with a link to the feature, after the change’s answer', async () => {
    await installSlack(h, team.admin.call);
    await toggle(fixture.checkout, 'development', true);
    await settled();
    expect(texts()).toEqual([`${team.admin.email} turned on Checkout in Development (Web shop).`]);
    const [post] = slack.posts;
    expect(JSON.stringify(post!.body.blocks)).toContain(
      `<http://${team.admin.domain}.vexil.test/projects/web/environments/development/features/checkout|Open in Vexil>`,
    );
    expect(JSON.stringify(post!.body.blocks)).toContain('Environment *Development*');

    await saveControl(team.admin.call, await reload(fixture.checkout), fixture.development, {
      offVariantKey: 'on',
    });
    const created = await createFeature(team.admin.call, 'web', { name: 'Dark <mode> & more', key: 'dark' });
    const deleted = await team.admin.call('DELETE', `/api/v1/project/web/features/${created.id}/`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await settled();
    expect(texts().slice(1)).toEqual([
      `${team.admin.email} saved the targeting of Checkout in Development (Web shop).`,
      `${team.admin.email} created the feature Dark &lt;mode&gt; &amp; more in Web shop.`,
      `${team.admin.email} deleted the feature Dark &lt;mode&gt; &amp; more from Web shop.`,
    ]);
    expect(JSON.stringify(slack.posts[2]!.body.blocks)).toContain(
      `http://${team.admin.domain}.vexil.test/projects/web/features/dark`,
    );
  });

  it('tells of experiments started and finished', async () => {
    await installSlack(h, team.admin.call);
    const body = {
      projectKey: 'web',
      environmentKey: 'development',
      name: 'Checkout button',
      description: '',
      goalKey: 'purchase',
      featureId: fixture.checkout.id,
      control: 'off',
      variation: 'on',
      enabled: true,
    };
    const created = await team.admin.call('POST', '/api/v1/experiments/', body);
    expect(created.statusCode, created.body).toBe(201);
    const experiment = created.json<{ id: string; mode: string }>();
    const finished = await team.admin.call('PUT', '/api/v1/experiments/', {
      ...body,
      id: experiment.id,
      mode: experiment.mode,
      enabled: false,
    });
    expect(finished.statusCode, finished.body).toBe(200);
    await settled();
    expect(texts()).toEqual([
      `${team.admin.email} started the experiment Checkout button on Checkout in Development (Web shop).`,
      `${team.admin.email} finished the experiment Checkout button on Checkout in Development (Web shop).`,
    ]);
    expect(JSON.stringify(slack.posts[0]!.body.blocks)).toContain(
      `http://${team.admin.domain}.vexil.test/projects/web/environments/development/experiments`,
    );
  });

  it('posts only what the filters choose: projects, environments and event kinds', async () => {
    const installed = await installSlack(h, team.admin.call);
    const res = await team.admin.call('PUT', `/api/v1/integrations/${installed.id}/filters`, {
      projectKeys: ['web'],
      environmentKeys: ['production'],
      events: ['feature.toggled', 'feature.created', 'feature.toggled'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Integration>()).toMatchObject({
      filters: {
        projectKeys: ['web'],
        environmentKeys: ['production'],
        events: ['feature.toggled', 'feature.created'],
      },
    });
    expect((await list())[0]).toMatchObject({ filters: { environmentKeys: ['production'] } });

    await toggle(fixture.checkout, 'development', true);
    await saveControl(team.admin.call, await reload(fixture.checkout), fixture.production, {
      offVariantKey: 'on',
    });
    await toggle(await reload(fixture.checkout), 'production', true);
    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search' });
    const other = await team.admin.call('POST', '/api/v1/projects/', { name: 'Mobile', key: 'mob' });
    expect(other.statusCode, other.body).toBe(201);
    await createFeature(team.admin.call, 'mob', { name: 'Offline', key: 'offline' });
    await settled();
    expect(texts()).toEqual([
      `${team.admin.email} turned on Checkout in Production (Web shop).`,
      `${team.admin.email} created the feature Search in Web shop.`,
    ]);
    expect((await auditTrail(team.admin.call)).map((item) => item.title)).toContain(
      'Slack integration filters changed',
    );

    const bad = await team.admin.call('PUT', `/api/v1/integrations/${installed.id}/filters`, {
      events: ['feature.renamed'],
    });
    expect(bad.statusCode).toBe(400);
  });

  it('retries after a 500 and a 429 (waiting its Retry-After) and posts once, never delaying the change', async () => {
    await installSlack(h, team.admin.call);
    slack.failNext({ status: 500 }, { status: 429, retryAfter: 1 });
    const started = Date.now();
    await toggle(fixture.checkout, 'development', true);
    // The change has been answered; the post waits for Slack's Retry-After (1 s).
    expect(Date.now() - started).toBeLessThan(1000);
    expect(slack.posts).toEqual([]);
    await settled();
    expect(texts()).toEqual([`${team.admin.email} turned on Checkout in Development (Web shop).`]);
    const hook = slack.hooks().at(-1)!;
    expect(slack.requests.filter((request) => request === `POST ${hook}`)).toHaveLength(3);
  });

  it('gives up after its retries when Slack keeps failing, and the change stands', async () => {
    await installSlack(h, team.admin.call);
    slack.failNext({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 });
    await toggle(fixture.checkout, 'development', true);
    await settled();
    expect(slack.posts).toEqual([]);
    expect((await reload(fixture.checkout)).controls.development!.enabled).toBe(true);
    // The next change is posted as usual.
    await toggle(await reload(fixture.checkout), 'development', false);
    await settled();
    expect(texts()).toEqual([`${team.admin.email} turned off Checkout in Development (Web shop).`]);
  });

  it('leaves changes relayed from another instance to that instance', async () => {
    await installSlack(h, team.admin.call);
    h.app.services.events.publish({
      type: 'dashboard',
      organisationId: team.admin.organisationId,
      remote: true,
      change: {
        kind: 'feature.toggled',
        projectKey: 'web',
        environmentKey: 'development',
        featureKey: 'checkout',
        enabled: true,
        at: new Date().toISOString(),
      },
    });
    await settled();
    expect(slack.posts).toEqual([]);
  });

  it('stops posting once removed; removing is audited', async () => {
    const installed = await installSlack(h, team.admin.call);
    const res = await team.admin.call('DELETE', `/api/v1/integrations/${installed.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await list()).toEqual([]);
    expect((await team.admin.call('DELETE', `/api/v1/integrations/${installed.id}`)).statusCode).toBe(404);
    expect((await auditTrail(team.admin.call))[0]).toMatchObject({ title: 'Slack integration removed' });
    await toggle(fixture.checkout, 'development', true);
    await settled();
    expect(slack.posts).toEqual([]);
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
