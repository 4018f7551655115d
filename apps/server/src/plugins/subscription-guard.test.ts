/**
 * An inactive subscription (docs/product.md, Subscription) refuses every signed-in write of the
 * dashboard API with 403 `subscription_inactive`, except what an organisation admin needs to pay and
 * the signed-in user's own session and walkthrough.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Environment, Role, TeamMember } from '@vexil/core';
import { subscriptions } from '../db/schema/index';
import { INACTIVE_ACCOUNT } from '../modules/billing/billing.service';
import { callerFor, createTeam, type Team } from '../../test/api';
import { fingerprint } from '../../test/fingerprint';
import { createHarness, type Harness } from '../../test/helpers';
import { sdkFixture } from '../../test/sdk';
import { requiresSession } from './auth';

/** The signed-in writes an inactive organisation may still make, as `METHOD url`. */
const ALLOWED_WHILE_INACTIVE = [
  'POST /api/v1/billing/subscription/manage',
  'POST /api/v1/billing/subscription/change',
  'POST /api/v1/billing/local/subscribe',
  'PUT /api/v1/billing/local/contact',
  'POST /api/v1/account/sessions/revoke-all',
  'PUT /api/v1/users/:id/settings/intro/read',
];

const REFUSED = { title: INACTIVE_ACCOUNT, code: 'subscription_inactive' };

let h: Harness;
let team: Team;
let development: Environment;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.app.sdk.store.settled();
  await h.database.reset();
  team = await createTeam(h);
  ({ development } = await sdkFixture(team.admin.call));
  await h.app.sdk.store.settled();
});

async function deactivate() {
  await h.database.db
    .insert(subscriptions)
    .values({ organisationId: team.admin.organisationId, status: 'inactive' });
}

/** A route's URL with each parameter filled in. */
const filled = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000001');

describe('an inactive subscription', () => {
  it('refuses every signed-in write of the dashboard API, except paying, signing out everywhere and closing the walkthrough', async () => {
    await deactivate();
    const writes = h.app.routeTable.filter(
      (route) =>
        ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) &&
        requiresSession(route.url, route.isPublic),
    );
    // The list is the API's: a new write route is refused unless its route says otherwise.
    expect(writes.length).toBeGreaterThan(40);
    const before = await fingerprint(h.database.db, team.admin.organisationId);
    const wrong: string[] = [];
    for (const route of writes) {
      const name = `${route.method} ${route.url}`;
      if (ALLOWED_WHILE_INACTIVE.includes(name)) continue;
      const res = await team.admin.call(route.method as 'POST', filled(route.url), {});
      if (res.statusCode !== 403 || res.json<{ code?: string }>().code !== 'subscription_inactive')
        wrong.push(`${name}: ${res.statusCode} ${res.body}`);
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint(h.database.db, team.admin.organisationId)).toEqual(before);
  });

  it('refuses roles, access tokens, invitations, member changes, bookmarks and key rotation, well formed as they are', async () => {
    const checkout = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<{
      id: string;
    }>();
    const role = (
      await team.admin.call('PUT', '/api/v1/roles', {
        name: 'Switchers',
        grants: [
          {
            actions: ['update'],
            resources: ['featureControl'],
            projects: null,
            environments: { kind: 'nonProduction' },
          },
        ],
      })
    ).json<Role>();
    await deactivate();
    const editor = (await team.admin.call('GET', '/api/v1/users'))
      .json<TeamMember[]>()
      .find((member) => member.id === team.editor.id)!;
    const before = await fingerprint(h.database.db, team.admin.organisationId);
    const attempts: [string, ReturnType<typeof team.admin.call>][] = [
      ['create a role', team.admin.call('PUT', '/api/v1/roles', { name: 'More', grants: [] })],
      [
        'assign a role',
        team.admin.call('PUT', `/api/v1/roles/${role.id}/members`, { userIds: [team.readOnly.id] }),
      ],
      ['delete a role', team.admin.call('DELETE', `/api/v1/roles/${role.id}`)],
      ['create an access token', team.admin.call('POST', '/api/internal/v1/tokens', { name: 'Script' })],
      ['invite', team.admin.call('POST', '/api/v1/invites', [{ email: 'helper@example.com' }])],
      [
        'change a role',
        team.admin.call('PUT', '/api/v1/users', {
          id: editor.id,
          firstName: editor.firstName,
          lastName: editor.lastName,
          authority: 'ROLE_ORGANISATION_READONLY_USER',
        }),
      ],
      ['remove a member', team.admin.call('DELETE', `/api/v1/users/${team.readOnly.id}`)],
      ['bookmark', team.editor.call('PUT', `/api/v1/features/${checkout.id}/bookmark/true`)],
      [
        'rotate a server key',
        team.admin.call('POST', `/api/v1/environments/${development.id}/keys/server/rotate`),
      ],
    ];
    for (const [what, attempt] of attempts) {
      const res = await attempt;
      expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
      expect(res.json(), what).toEqual(REFUSED);
    }
    expect(await fingerprint(h.database.db, team.admin.organisationId)).toEqual(before);
  });

  it('still lets admins pay, members read, and everyone close the walkthrough and sign out everywhere', async () => {
    await deactivate();
    for (const url of ['/api/v1/products/', '/api/v1/billing/info', '/api/v1/billing/usage'])
      expect((await team.admin.call('GET', url)).statusCode, url).toBe(200);
    expect((await team.admin.call('POST', '/api/v1/billing/subscription/manage')).statusCode).toBe(200);
    expect((await team.readOnly.call('GET', '/api/v1/projects/web/features/checkout')).statusCode).toBe(200);
    const read = await team.editor.call('PUT', `/api/v1/users/${team.editor.id}/settings/intro/read`);
    expect(read.statusCode, read.body).toBe(200);
    const second = callerFor(h.app, await h.login(team.editor));
    expect((await second('POST', '/api/v1/account/sessions/revoke-all')).statusCode).toBe(204);
    expect((await team.editor.call('GET', '/api/v1/initial')).statusCode).toBe(401);
  });

  it('refuses nothing while the billing flag is off', async () => {
    const off = await createHarness({ VEXIL_UI_FLAGS: 'billing=off' });
    try {
      const admin = await off.createOrganisation();
      await off.database.db
        .insert(subscriptions)
        .values({ organisationId: admin.organisationId, status: 'inactive' });
      const call = callerFor(off.app, await off.login(admin));
      const res = await call('POST', '/api/internal/v1/tokens', { name: 'Script' });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await off.close();
    }
  });
});
