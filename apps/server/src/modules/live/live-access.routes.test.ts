import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORITIES } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { bearer, createHarness, type Harness, type TestUser } from '../../../test/helpers';
import { connectLive, wsAddress } from '../../../test/live';
import { saveControl, sdkFixture } from '../../../test/sdk';
import { sessions, users } from '../../db/schema/index';
import { LIVE_FORBIDDEN, LIVE_SESSION_ENDED } from './live.hub';

/*
 * An open dashboard stops hearing the organisation's changes when its access ends: its session signs
 * out, its member signs out everywhere or is removed, or its session ends without a word (expiry).
 */

let h: Harness;
let team: Team;
let address: string;
let fixture: Awaited<ReturnType<typeof sdkFixture>>;

beforeAll(async () => {
  h = await createHarness();
  team = await createTeam(h);
  fixture = await sdkFixture(team.admin.call);
  address = wsAddress(await h.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await h.close();
});

const member = (authority: string = AUTHORITIES.ROLE_ORGANISATION_EDITOR): Promise<TestUser> =>
  h.createUser(team.admin.organisationId, team.admin.domain, { authority });

let enabled = false;
/** A change every open dashboard of the organisation would hear. */
async function toggle() {
  enabled = !enabled;
  const feature = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<
    typeof fixture.checkout
  >();
  await saveControl(team.admin.call, feature, fixture.development, { enabled });
}

describe('live dashboards when access ends', () => {
  it('closes the dashboard of a session that signs out, which hears nothing more, and keeps the others', async () => {
    const person = await member();
    const token = await h.login(person);
    const leaving = await connectLive(address, bearer(token));
    const staying = await connectLive(address, bearer(await h.login(person)));
    try {
      const out = await h.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
      expect(out.statusCode).toBe(204);
      await toggle();
      await expect
        .poll(() => leaving.closed())
        .toEqual({ code: LIVE_SESSION_ENDED, reason: 'Session ended' });
      await expect.poll(() => staying.changes().length).toBe(1);
      expect(leaving.changes()).toEqual([]);
      expect(staying.closed()).toBeNull();
    } finally {
      staying.close();
    }
  });

  it('closes every dashboard of a member who signs out everywhere, and no one else’s', async () => {
    const person = await member();
    const token = await h.login(person);
    const first = await connectLive(address, bearer(token));
    const second = await connectLive(address, bearer(await h.login(person)));
    const colleague = await connectLive(address, bearer(await h.login(await member())));
    try {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/account/sessions/revoke-all',
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(204);
      await toggle();
      await expect.poll(() => first.closed()?.code).toBe(LIVE_SESSION_ENDED);
      await expect.poll(() => second.closed()?.code).toBe(LIVE_SESSION_ENDED);
      await expect.poll(() => colleague.changes().length).toBe(1);
      expect([...first.changes(), ...second.changes()]).toEqual([]);
      expect(colleague.closed()).toBeNull();
    } finally {
      colleague.close();
    }
  });

  it('closes the dashboards of a member an admin removes', async () => {
    const person = await member();
    const dashboard = await connectLive(address, bearer(await h.login(person)));
    const removed = await team.admin.call('DELETE', `/api/v1/users/${person.id}`);
    expect(removed.statusCode).toBe(204);
    await toggle();
    await expect.poll(() => dashboard.closed()?.code).toBe(LIVE_SESSION_ENDED);
    expect(dashboard.changes()).toEqual([]);
  });

  it('checks a dashboard again when its member’s role changes: kept with the new role, closed without one', async () => {
    const person = await member(AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR);
    const dashboard = await connectLive(address, bearer(await h.login(person)));
    const demoted = await team.admin.call('PUT', '/api/v1/users', {
      id: person.id,
      firstName: 'Test',
      lastName: 'User',
      authority: AUTHORITIES.ROLE_ORGANISATION_READONLY_USER,
    });
    expect(demoted.statusCode).toBe(200);
    await h.app.services.live.settled();
    // Reading is open to every role: a read-only member still hears the changes.
    await toggle();
    await expect.poll(() => dashboard.changes().length).toBe(1);
    expect(dashboard.closed()).toBeNull();

    // Left with no role the dashboard knows (the operator's edit), the member may read nothing.
    await h.database.db.update(users).set({ authorities: [] }).where(eq(users.id, person.id));
    const { auth } = h.app.services;
    auth.accessChanged(await auth.accessChangedWithin(h.database.db, person.organisationId, person.id));
    await toggle();
    await expect.poll(() => dashboard.closed()?.code).toBe(LIVE_FORBIDDEN);
    expect(dashboard.changes()).toHaveLength(1);
  });

  it('closes, at the next check of every dashboard, one whose session ended unannounced (expired)', async () => {
    const person = await member();
    const dashboard = await connectLive(address, bearer(await h.login(person)));
    await h.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, person.id));
    await h.app.services.live.recheckAll();
    await expect.poll(() => dashboard.closed()?.code).toBe(LIVE_SESSION_ENDED);
  });

  it('is opened with a session only, not an access token', async () => {
    const created = await team.admin.call('POST', '/api/internal/v1/tokens', {
      name: 'Live',
      expiresInDays: 30,
    });
    expect(created.statusCode).toBe(201);
    const key = created.json<{ key: string }>().key;
    await expect(connectLive(address, bearer(key))).rejects.toThrow('refused with 403');
  });
});
