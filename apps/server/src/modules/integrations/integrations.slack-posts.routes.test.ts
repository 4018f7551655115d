import { describe, expect, it } from 'vitest';
import type { Integration } from '@vexil/core';
import { auditTrail } from '../../../test/api';
import { createFeature } from '../../../test/features';
import { installSlack } from '../../../test/integrations';
import { saveControl } from '../../../test/sdk';
import {
  setUpIntegrationRoutes,
  h,
  slack,
  team,
  fixture,
  settled,
  list,
  toggle,
  reload,
  texts,
} from './integrations.routes.fixture';

setUpIntegrationRoutes();

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
