import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  INTEGRATIONS_ADMINS_ONLY,
  MAX_WEBHOOKS_PER_PROJECT,
  type Webhook,
  type WebhookDelivery,
} from '@vexil/core';
import { webhooks } from '../../db/schema/index';
import { auditTrail, callerFor } from '../../../test/api';
import { createHarness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, integrationsEnv } from '../../../test/integrations';
import {
  setUpWebhookRoutes,
  h,
  team,
  receiver,
  sink,
  redirectorUrl,
  deliverDue,
  create,
  deliveries,
  toggle,
} from './webhooks.routes.fixture';

setUpWebhookRoutes();

describe('managing webhooks', () => {
  it('creates a webhook showing its secret once; lists, changes, rotates and removes it, audited', async () => {
    const created = await create({ environmentKeys: ['production', 'production'] });
    expect(created).toEqual({
      id: expect.any(String),
      projectKey: 'web',
      url: receiver.url,
      description: 'Deploy bot',
      events: ['feature.toggled'],
      environmentKeys: ['production'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdDate: expect.any(String),
      lastDelivery: null,
    });
    const [row] = await h.database.db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.secret!.slice(6));

    const listed = (await team.admin.call('GET', '/api/v1/projects/web/webhooks')).json<Webhook[]>();
    expect(listed).toEqual([{ ...created, secret: undefined }].map(({ secret: _secret, ...rest }) => rest));

    const updated = await team.admin.call('PUT', `/api/v1/projects/web/webhooks/${created.id}`, {
      url: `${receiver.url}?v=2`,
      events: ['feature.created', 'feature.deleted'],
      enabled: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<Webhook>()).toMatchObject({
      url: `${receiver.url}?v=2`,
      events: ['feature.created', 'feature.deleted'],
      environmentKeys: [],
      description: '',
      enabled: false,
    });
    expect(updated.json<Webhook>().secret).toBeUndefined();

    const rotated = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json<Webhook>().secret).toMatch(/^whsec_/);
    expect(rotated.json<Webhook>().secret).not.toBe(created.secret);

    const removed = await team.admin.call('DELETE', `/api/v1/projects/web/webhooks/${created.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await team.admin.call('GET', '/api/v1/projects/web/webhooks')).json()).toEqual([]);
    expect((await auditTrail(team.admin.call)).slice(0, 4).map((item) => item.title)).toEqual([
      'Webhook removed from Web shop',
      'Webhook secret of Web shop replaced',
      'Webhook of Web shop changed',
      'Webhook added to Web shop',
    ]);
  });

  it('is for organisation admins of the organisation only', async () => {
    const created = await create();
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      for (const [method, url] of [
        ['GET', '/api/v1/projects/web/webhooks'],
        ['POST', '/api/v1/projects/web/webhooks'],
        ['PUT', `/api/v1/projects/web/webhooks/${created.id}`],
        ['DELETE', `/api/v1/projects/web/webhooks/${created.id}`],
        ['POST', `/api/v1/projects/web/webhooks/${created.id}/test`],
        ['GET', `/api/v1/projects/web/webhooks/${created.id}/deliveries`],
      ] as const) {
        const body =
          method === 'POST' && url.endsWith('webhooks')
            ? { url: receiver.url, events: ['feature.toggled'] }
            : undefined;
        const res = await member.call(
          method,
          url,
          method === 'PUT' ? { url: receiver.url, events: ['feature.toggled'] } : body,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json<{ title: string }>().title).toBe(INTEGRATIONS_ADMINS_ONLY);
      }
    }
    await team.outsider.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
    expect((await team.outsider.call('GET', '/api/v1/projects/web/webhooks')).json()).toEqual([]);
    for (const [method, url] of [
      ['DELETE', `/api/v1/projects/web/webhooks/${created.id}`],
      ['POST', `/api/v1/projects/web/webhooks/${created.id}/test`],
      ['GET', `/api/v1/projects/web/webhooks/${created.id}/deliveries`],
    ] as const)
      expect((await team.outsider.call(method, url)).statusCode, `${method} ${url}`).toBe(404);
    expect(receiver.received).toEqual([]);
  });

  it('refuses bad input with the field’s message, and more than the project’s limit', async () => {
    const post = (body: Record<string, unknown>) =>
      team.admin.call('POST', '/api/v1/projects/web/webhooks', body);
    expect((await post({ url: receiver.url, events: [] })).json()).toMatchObject({
      errors: [{ field: 'events', message: 'Choose at least one event.' }],
    });
    expect((await post({ url: 'ftp://example.com/', events: ['feature.toggled'] })).json()).toMatchObject({
      errors: [{ field: 'url', message: 'Must be a valid http(s) URL.' }],
    });
    expect((await post({ url: receiver.url, events: ['feature.renamed'] })).statusCode).toBe(400);
    for (let n = 0; n < MAX_WEBHOOKS_PER_PROJECT; n++) await create();
    const over = await post({ url: receiver.url, events: ['feature.toggled'] });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ title: string }>().title).toBe('A project may have at most 20 webhooks.');
  });
});

describe('the request-forgery guard', () => {
  it('refuses loopback, private, link-local and CGNAT addresses when saved, however written', async () => {
    const refused = [
      `http://127.0.0.1:${sink.port}/`,
      `http://[::1]:${sink.port}/`,
      `http://[::ffff:127.0.0.1]:${sink.port}/`,
      `http://2130706433:${sink.port}/`,
      `http://0x7f.1:${sink.port}/`,
      `http://10.0.0.1:${sink.port}/`,
      `http://169.254.169.254:${sink.port}/latest/meta-data/`,
      `http://100.64.0.1:${sink.port}/`,
      // IPv6 addresses that carry 127.0.0.1: IPv4-compatible, NAT64, 6to4, Teredo.
      `http://[::7f00:1]:${sink.port}/`,
      `http://[::127.0.0.1]:${sink.port}/`,
      `http://[64:ff9b::7f00:1]:${sink.port}/`,
      `http://[2002:7f00:1::1]:${sink.port}/`,
      `http://[2001:0:7f00:1::1]:${sink.port}/`,
    ];
    for (const url of refused) {
      const res = await team.admin.call('POST', '/api/v1/projects/web/webhooks', {
        url,
        events: ['feature.toggled'],
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
        {
          field: 'url',
          message:
            'Vexil may not send requests to this address: the address is not a public internet address.',
        },
      ]);
    }
    expect(sink.hits).toBe(0);
  });

  it('refuses a host name that resolves to loopback when it is not allowed by OUTGOING_ALLOWED_HOSTS', async () => {
    const noneAllowed = await createHarness(
      { ...integrationsEnv(), OUTGOING_ALLOWED_HOSTS: '' },
      { integrations: FAST_INTEGRATIONS },
    );
    try {
      const admin = await noneAllowed.createOrganisation();
      const call = callerFor(noneAllowed.app, await noneAllowed.login(admin));
      expect((await call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })).statusCode).toBe(201);
      const res = await call('POST', '/api/v1/projects/web/webhooks', {
        url: `http://localhost:${sink.port}/`,
        events: ['feature.toggled'],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(
        'Vexil may not send requests to this address: its host name points to an address that is not public.',
      );
      expect(sink.hits).toBe(0);
    } finally {
      await noneAllowed.close();
    }
  });

  it('checks the address again at each delivery, and follows no redirect: the listener records zero hits', async () => {
    const created = await create();
    // The address changed since it was saved (here, in the database): the delivery is refused.
    await h.database.db
      .update(webhooks)
      .set({ url: `http://127.0.0.1:${sink.port}/` })
      .where(eq(webhooks.id, created.id));
    const test = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/test`);
    expect(test.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      responseCode: null,
      error: 'Refused: the address is not a public internet address.',
    });
    await toggle('development', true);
    await deliverDue();
    expect((await deliveries(created))[0]).toMatchObject({
      eventType: 'feature.toggled',
      status: 'pending',
      attempts: 1,
      error: 'Refused: the address is not a public internet address.',
    });
    // The same for an IPv4-compatible IPv6 address of loopback.
    await h.database.db
      .update(webhooks)
      .set({ url: `http://[::7f00:1]:${sink.port}/` })
      .where(eq(webhooks.id, created.id));
    const compatible = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/test`);
    expect(compatible.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      responseCode: null,
      error: 'Refused: the address is not a public internet address.',
    });

    const redirected = await create({ url: redirectorUrl });
    const answer = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${redirected.id}/test`);
    expect(answer.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      responseCode: 302,
      error: 'HTTP 302: redirects are not followed.',
    });
    expect(sink.hits).toBe(0);
  });
});
