import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { integrations, ssoConnections, webhooks } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { callerFor } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS } from '../../../test/integrations';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
let h: Harness;

beforeAll(async () => {
  h = await createHarness(
    {
      SECRETS_KEY: newKey.toString('hex'),
      SECRETS_KEY_PREVIOUS: oldKey.toString('base64'),
      OUTGOING_ALLOWED_HOSTS: 'localhost',
    },
    { integrations: FAST_INTEGRATIONS },
  );
});
afterAll(async () => {
  await h?.close();
});

describe('rotating SECRETS_KEY', () => {
  it('reads what the previous key encrypted, and encrypts every stored secret again with the new one', async () => {
    const admin = await h.createOrganisation();
    const call = callerFor(h.app, await h.login(admin));
    expect((await call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })).statusCode).toBe(201);
    const created = await call('POST', '/api/v1/projects/web/webhooks', {
      url: 'http://localhost:9/hook',
      events: ['feature.toggled'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const webhookId = created.json<{ id: string }>().id;
    const organisationId = admin.organisationId;

    // Secrets stored before the rotation, under the old key.
    const old = secretBoxWithKey(oldKey);
    await h.database.db
      .update(webhooks)
      .set({ secretEncrypted: old.encrypt('whsec_c2VjcmV0', `webhook.secret:${webhookId}`) })
      .where(eq(webhooks.id, webhookId));
    const [slack] = await h.database.db
      .insert(integrations)
      .values({
        organisationId,
        type: 'slack',
        configuration: { incomingWebhook: { channel: '#general' } },
        secrets: {
          webhookUrl: old.encrypt('https://hooks.example/x', `integration.webhookUrl:${organisationId}`),
        },
      })
      .returning();
    await h.database.db.insert(ssoConnections).values({
      organisationId,
      displayName: 'Acme ID',
      issuer: 'https://id.example',
      clientId: 'vexil',
      clientSecretEncrypted: old.encrypt('client-s3cret', `sso.client_secret:${organisationId}`),
      allowedDomains: ['example.com'],
      defaultRole: 'ROLE_ORGANISATION_READONLY_USER',
    });

    const services = h.app.services;
    expect((await services.sso.reencryptSecrets()) + (await services.integrations.reencryptSecrets())).toBe(
      3,
    );
    // Done: a second pass finds nothing left under the old key.
    expect((await services.sso.reencryptSecrets()) + (await services.integrations.reencryptSecrets())).toBe(
      0,
    );

    const current = secretBoxWithKey(newKey);
    const [hook] = await h.database.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    expect(current.decrypt(hook!.secretEncrypted, `webhook.secret:${webhookId}`)).toBe('whsec_c2VjcmV0');
    const [integration] = await h.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, slack!.id));
    expect(
      current.decrypt(integration!.secrets.webhookUrl!, `integration.webhookUrl:${organisationId}`),
    ).toBe('https://hooks.example/x');
    const [sso] = await h.database.db.select().from(ssoConnections);
    expect(current.decrypt(sso!.clientSecretEncrypted!, `sso.client_secret:${organisationId}`)).toBe(
      'client-s3cret',
    );
  });
});
