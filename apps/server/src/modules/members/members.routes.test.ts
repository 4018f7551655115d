import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  OWN_ROLE_MESSAGE,
  PENDING_EDIT_MESSAGE,
  REMOVE_SELF_MESSAGE,
  TEAM_ADMIN_ONLY,
  type InvitesResult,
  type TeamMember,
} from '@vexil/core';
import { features, invites, sessions, users } from '../../db/schema/index';
import { auditTrail, callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { SESSION_ONLY } from '../../plugins/auth';
import { bearer, createHarness, type Harness, type TestUser } from '../../../test/helpers';

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
});

async function members(call: Caller = team.admin.call): Promise<TeamMember[]> {
  const res = await call('GET', '/api/v1/users');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TeamMember[]>();
}

async function invite(emails: string[], call: Caller = team.admin.call): Promise<InvitesResult> {
  const res = await call(
    'POST',
    '/api/v1/invites',
    emails.map((email) => ({ email })),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<InvitesResult>();
}

function updateBody(user: TestUser, overrides: Record<string, unknown> = {}) {
  return {
    id: user.id,
    firstName: 'Test',
    lastName: 'User',
    authority: 'ROLE_ORGANISATION_EDITOR',
    ...overrides,
  };
}

/** A second organisation admin of the team's organisation, signed in. */
async function secondAdmin(): Promise<TestUser & { call: Caller; token: string }> {
  const user = await h.createUser(team.admin.organisationId, team.admin.domain, {
    authority: 'ROLE_ORGANISATION_ADMIN',
  });
  const token = await h.login(user);
  return { ...user, token, call: callerFor(h.app, token) };
}

describe('GET /api/v1/users', () => {
  it('lists the members with their role and activated flag, and pending invitations as not activated', async () => {
    await invite(['pending@example.com']);
    const list = await members();
    expect(list).toHaveLength(5);
    const admin = list.find((m) => m.id === team.admin.id)!;
    expect(admin).toMatchObject({
      email: team.admin.email,
      fullName: 'Test User',
      authority: 'ROLE_ORGANISATION_ADMIN',
      authorities: ['ROLE_ORGANISATION_ADMIN'],
      activated: true,
      invitationExpiresDate: null,
    });
    expect(list.find((m) => m.id === team.readOnly.id)?.authority).toBe('ROLE_ORGANISATION_READONLY_USER');
    const pending = list.find((m) => m.email === 'pending@example.com')!;
    expect(pending).toMatchObject({
      activated: false,
      fullName: '',
      authority: 'ROLE_ORGANISATION_READONLY_USER',
    });
    expect(pending.invitationExpiresDate).not.toBeNull();
    // Active members first.
    expect(list.at(-1)?.email).toBe('pending@example.com');
  });

  it('never answers a password hash', async () => {
    const res = await team.admin.call('GET', '/api/v1/users');
    expect(res.body).not.toMatch(/scrypt|password/i);
  });

  it('is refused to members who are not organisation admins', async () => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('GET', '/api/v1/users');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: TEAM_ADMIN_ONLY, code: 'forbidden' });
    }
  });

  it("shows only the caller's organisation", async () => {
    const list = await members(team.outsider.call);
    expect(list.map((m) => m.email)).toEqual([team.outsider.email]);
  });
});

describe('PUT /api/v1/users', () => {
  it("changes a member's names and role, audited", async () => {
    const res = await team.admin.call(
      'PUT',
      '/api/v1/users',
      updateBody(team.editor, {
        firstName: ' Grace ',
        lastName: 'Hopper',
        authority: 'ROLE_ORGANISATION_PROD_EDITOR',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: team.editor.id,
      firstName: 'Grace',
      lastName: 'Hopper',
      fullName: 'Grace Hopper',
      authority: 'ROLE_ORGANISATION_PROD_EDITOR',
      email: team.editor.email,
    });
    const [entry] = await auditTrail(team.admin.call);
    expect(entry?.title).toBe('Member Grace Hopper updated');
    expect(entry?.description).toContain('from **Non-Production editor** to **Production editor**');
    expect(entry?.description).toContain('renamed them from **Test User** to **Grace Hopper**');
  });

  it('answers the form messages: first name, last name and role are required', async () => {
    const res = await team.admin.call('PUT', '/api/v1/users', {
      id: team.editor.id,
      firstName: ' ',
      lastName: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual(
      expect.arrayContaining([
        { field: 'firstName', message: 'First name is required' },
        { field: 'lastName', message: 'Last name is required' },
        { field: 'authority', message: 'Role is required' },
      ]),
    );
  });

  it('never changes the e-mail, and never grants ROLE_ADMIN', async () => {
    const res = await team.admin.call(
      'PUT',
      '/api/v1/users',
      updateBody(team.editor, { email: 'eve@example.com' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json<TeamMember>().email).toBe(team.editor.email);
    const admin = await team.admin.call(
      'PUT',
      '/api/v1/users',
      updateBody(team.editor, { authority: 'ROLE_ADMIN' }),
    );
    expect(admin.statusCode).toBe(400);
  });

  it('lets admins rename themselves but not change their own role', async () => {
    const own = updateBody(team.admin, { firstName: 'Ada', authority: 'ROLE_ORGANISATION_ADMIN' });
    expect((await team.admin.call('PUT', '/api/v1/users', own)).statusCode).toBe(200);
    const res = await team.admin.call('PUT', '/api/v1/users', {
      ...own,
      authority: 'ROLE_ORGANISATION_EDITOR',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      title: OWN_ROLE_MESSAGE,
      errors: [{ field: 'authority', message: OWN_ROLE_MESSAGE }],
    });
    expect((await members()).find((m) => m.id === team.admin.id)?.authority).toBe('ROLE_ORGANISATION_ADMIN');
  });

  it('refuses to edit a pending invitation', async () => {
    const [pending] = (await invite(['pending@example.com'])).invitations;
    const res = await team.admin.call('PUT', '/api/v1/users', {
      id: pending!.id,
      firstName: 'Pat',
      lastName: 'Pending',
      authority: 'ROLE_ORGANISATION_ADMIN',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: PENDING_EDIT_MESSAGE });
  });

  it('answers 404 for an unknown member and for a member of another organisation', async () => {
    const unknown = { ...updateBody(team.editor), id: '00000000-0000-4000-8000-000000000000' };
    expect((await team.admin.call('PUT', '/api/v1/users', unknown)).statusCode).toBe(404);
    const foreign = await team.outsider.call('PUT', '/api/v1/users', updateBody(team.editor));
    expect(foreign.statusCode).toBe(404);
    expect((await members()).find((m) => m.id === team.editor.id)?.authority).toBe(
      'ROLE_ORGANISATION_EDITOR',
    );
  });

  it('is refused to members who are not organisation admins', async () => {
    const res = await team.productionEditor.call('PUT', '/api/v1/users', updateBody(team.editor));
    expect(res.statusCode).toBe(403);
  });

  it("a demoted admin's very next call to an admin route is refused with 403, with the same session", async () => {
    const other = await secondAdmin();
    expect((await other.call('GET', '/api/v1/users')).statusCode).toBe(200);
    const demote = await team.admin.call(
      'PUT',
      '/api/v1/users',
      updateBody(other, { authority: 'ROLE_ORGANISATION_EDITOR' }),
    );
    expect(demote.statusCode).toBe(200);
    expect((await other.call('GET', '/api/v1/users')).statusCode).toBe(403);
    expect((await other.call('POST', '/api/v1/projects', { name: 'Nope', key: 'nope' })).statusCode).toBe(
      403,
    );
    // Still signed in, with what an editor may do.
    const initial = await other.call('GET', '/api/v1/initial');
    expect(initial.statusCode).toBe(200);
    expect(initial.json<{ principalUser: { authorities: string[] } }>().principalUser.authorities).toEqual([
      'ROLE_ORGANISATION_EDITOR',
    ]);
  });

  it('keeps an organisation admin when two admins demote each other at the same time', async () => {
    const other = await secondAdmin();
    const [a, b] = await Promise.all([
      team.admin.call('PUT', '/api/v1/users', updateBody(other, { authority: 'ROLE_ORGANISATION_EDITOR' })),
      other.call('PUT', '/api/v1/users', updateBody(team.admin, { authority: 'ROLE_ORGANISATION_EDITOR' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
    const admins = (
      await h.database.db.select().from(users).where(eq(users.organisationId, team.admin.organisationId))
    ).filter((u) => u.authorities.includes('ROLE_ORGANISATION_ADMIN'));
    expect(admins).toHaveLength(1);
  });
});

describe('DELETE /api/v1/users/{id}', () => {
  it('removes a member, audited; their session and cookie stop working on the next call', async () => {
    const token = await h.login(team.editor);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const res = await team.admin.call('DELETE', `/api/v1/users/${team.editor.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) })).statusCode,
    ).toBe(401);
    const byCookie = await h.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      cookies: { authenticationToken: token },
    });
    expect(byCookie.statusCode).toBe(401);
    expect((await team.editor.call('GET', '/api/v1/projects')).statusCode).toBe(401);
    expect((await members()).map((m) => m.id)).not.toContain(team.editor.id);
    const [entry] = await auditTrail(team.admin.call);
    expect(entry?.title).toBe('Test User removed from the team');
    expect(entry?.description).toContain('who was a **Non-Production editor**');
    // They cannot sign in again.
    await expect(h.login(team.editor)).rejects.toThrow(/401/);
  });

  it("ends a removed admin's personal access token too, and a demoted one's admin rights", async () => {
    const other = await secondAdmin();
    const created = await other.call('POST', '/api/internal/v1/tokens', { name: 'CI' });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json<{ key: string }>().key;
    const withToken = callerFor(h.app, token);
    expect((await withToken('GET', '/api/v1/users')).statusCode).toBe(200);
    const demote = await team.admin.call(
      'PUT',
      '/api/v1/users',
      updateBody(other, { authority: 'ROLE_ORGANISATION_EDITOR' }),
    );
    expect(demote.statusCode).toBe(200);
    expect((await withToken('GET', '/api/v1/users')).statusCode).toBe(403);
    expect((await withToken('GET', '/api/v1/projects')).statusCode).toBe(200);
    expect((await team.admin.call('DELETE', `/api/v1/users/${other.id}`)).statusCode).toBe(204);
    expect((await withToken('GET', '/api/v1/projects')).statusCode).toBe(401);
  });

  it('leaves the features they maintained without a maintainer', async () => {
    await team.admin.call('POST', '/api/v1/projects', { name: 'Shop', key: 'shop' });
    // A feature is maintained by whoever created it.
    const feature = await team.editor.call('POST', '/api/v1/projects/shop/features', {
      name: 'Checkout',
      key: 'checkout',
    });
    expect(feature.statusCode, feature.body).toBe(201);
    expect(feature.json<{ maintainer: { id: string } }>().maintainer.id).toBe(team.editor.id);
    await team.admin.call('DELETE', `/api/v1/users/${team.editor.id}`);
    const [row] = await h.database.db.select().from(features).where(eq(features.key, 'checkout'));
    expect(row?.maintainerId).toBeNull();
  });

  it('cancels a pending invitation: its user and its link are gone', async () => {
    const [pending] = (await invite(['pending@example.com'])).invitations;
    const res = await team.admin.call('DELETE', `/api/v1/users/${pending!.id}`);
    expect(res.statusCode).toBe(204);
    expect((await members()).map((m) => m.email)).not.toContain('pending@example.com');
    expect(await h.database.db.select().from(invites).where(eq(invites.userId, pending!.id))).toEqual([]);
    expect((await auditTrail(team.admin.call))[0]?.title).toBe('Invitation to pending@example.com cancelled');
  });

  it('refuses to remove oneself', async () => {
    const res = await team.admin.call('DELETE', `/api/v1/users/${team.admin.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: REMOVE_SELF_MESSAGE });
    expect((await team.admin.call('GET', '/api/v1/users')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id and for a member of another organisation, and 400 for a malformed one', async () => {
    expect(
      (await team.admin.call('DELETE', '/api/v1/users/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
    expect((await team.outsider.call('DELETE', `/api/v1/users/${team.editor.id}`)).statusCode).toBe(404);
    expect((await team.admin.call('DELETE', '/api/v1/users/nope')).statusCode).toBe(400);
    expect((await team.editor.call('GET', '/api/v1/projects')).statusCode).toBe(200);
  });

  it('is refused to members who are not organisation admins', async () => {
    const res = await team.productionEditor.call('DELETE', `/api/v1/users/${team.editor.id}`);
    expect(res.statusCode).toBe(403);
    expect((await team.editor.call('GET', '/api/v1/projects')).statusCode).toBe(200);
  });

  it('keeps an organisation admin when two admins remove each other at the same time', async () => {
    const other = await secondAdmin();
    const [a, b] = await Promise.all([
      team.admin.call('DELETE', `/api/v1/users/${other.id}`),
      other.call('DELETE', `/api/v1/users/${team.admin.id}`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([204, 403]);
    const left = await h.database.db
      .select()
      .from(users)
      .where(and(eq(users.organisationId, team.admin.organisationId), eq(users.activated, true)));
    expect(left.filter((u) => u.authorities.includes('ROLE_ORGANISATION_ADMIN'))).toHaveLength(1);
  });
});

describe('POST /api/v1/account/sessions/revoke-all', () => {
  it("ends every session of the caller's, clears the cookie and leaves other members signed in", async () => {
    const first = await h.login(team.editor);
    const second = await h.login(team.editor);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/account/sessions/revoke-all',
      headers: bearer(first),
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/authenticationToken=;.*Expires=Thu, 01 Jan 1970/);
    for (const token of [first, second]) {
      const after = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
      expect(after.statusCode).toBe(401);
    }
    expect((await team.editor.call('GET', '/api/v1/initial')).statusCode).toBe(401);
    expect((await team.readOnly.call('GET', '/api/v1/initial')).statusCode).toBe(200);
    const live = await h.database.db.select().from(sessions).where(eq(sessions.userId, team.editor.id));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    expect((await auditTrail(team.admin.call))[0]?.title).toBe(`${team.editor.email} signed out everywhere`);
  });

  it('is refused to a personal access token: only a signed-in session signs its owner out everywhere', async () => {
    const created = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'Script' });
    expect(created.statusCode, created.body).toBe(201);
    const viaToken = callerFor(h.app, created.json<{ key: string }>().key);
    const res = await viaToken('POST', '/api/v1/account/sessions/revoke-all');
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ title: SESSION_ONLY, code: 'forbidden' });
    expect((await team.admin.call('GET', '/api/v1/initial')).statusCode).toBe(200);
    const live = await h.database.db.select().from(sessions).where(eq(sessions.userId, team.admin.id));
    expect(live.some((s) => s.revokedAt === null)).toBe(true);
  });

  it('is refused without a session, and takes no body', async () => {
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/v1/account/sessions/revoke-all' })).statusCode,
    ).toBe(401);
    const withBody = await team.readOnly.call('POST', '/api/v1/account/sessions/revoke-all', { all: true });
    expect(withBody.statusCode).toBe(400);
    expect((await team.readOnly.call('GET', '/api/v1/initial')).statusCode).toBe(200);
  });
});
