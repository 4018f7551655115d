import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { connectLive, wsAddress } from '../../../test/live';
import { saveControl, sdkFixture } from '../../../test/sdk';

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

const connect = (headers: Record<string, string>) => connectLive(address, headers);

const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe('GET /api/v1/live', () => {
  it('refuses a socket without a session, and a cookie-authenticated one from another site', async () => {
    await expect(connect({})).rejects.toThrow('refused with 401');
    const token = await h.login(team.admin);
    await expect(
      connect({ cookie: `authenticationToken=${token}`, origin: 'https://evil.example' }),
    ).rejects.toThrow('refused with 403');
  });

  it("tells the organisation's open dashboards who toggled, targeted, edited, created and deleted what, and no one else", async () => {
    const mine = await connect(as(await h.login(team.readOnly)));
    const theirs = await connect(as(await h.login(team.outsider)));
    try {
      await saveControl(team.editor.call, fixture.checkout, fixture.development, { enabled: true });
      await expect.poll(() => mine.changes().length).toBe(1);
      expect(mine.changes()[0]).toMatchObject({
        kind: 'feature.toggled',
        projectKey: 'web',
        environmentKey: 'development',
        featureKey: 'checkout',
        actor: { id: team.editor.id, name: team.editor.email },
      });

      const created = await team.admin.call('POST', '/api/v1/projects/web/features', {
        name: 'Banner',
        key: 'banner',
      });
      expect(created.statusCode).toBe(201);
      await expect
        .poll(() => mine.changes().map((c) => c.kind))
        .toEqual(['feature.toggled', 'feature.created']);
      // Another organisation's dashboards hear nothing of it.
      expect(theirs.changes()).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('says when an SDK evaluates a feature in an environment for the first time, and only then', async () => {
    const dashboard = await connect(as(await h.login(team.admin)));
    try {
      await h.app.sdk.store.settled();
      const send = () =>
        h.app.inject({
          method: 'POST',
          url: '/api/sdk/v1/events',
          headers: { authorization: `Bearer ${fixture.production.apiKey}` },
          payload: [{ featureKey: 'checkout', evaluatedVariant: 'off', user: { id: 'u1' } }],
        });
      expect((await send()).statusCode).toBe(200);
      await expect.poll(() => dashboard.changes().filter((c) => c.kind === 'feature.seen').length).toBe(1);
      expect(dashboard.changes().find((c) => c.kind === 'feature.seen')).toMatchObject({
        projectKey: 'web',
        environmentKey: 'production',
        featureKey: 'checkout',
      });
      expect(dashboard.changes().find((c) => c.kind === 'feature.seen')!.actor).toBeUndefined();
      expect((await send()).statusCode).toBe(200);
      // A moment for a second message that must not come.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(dashboard.changes().filter((c) => c.kind === 'feature.seen')).toHaveLength(1);
    } finally {
      dashboard.close();
    }
  });

  it('forgets a closed socket', async () => {
    // The earlier tests' sockets close as this one starts.
    await expect.poll(() => h.app.services.live.size()).toBe(0);
    const dashboard = await connect(as(await h.login(team.admin)));
    expect(h.app.services.live.size()).toBe(1);
    dashboard.close();
    await expect.poll(() => h.app.services.live.size()).toBe(0);
  });
});
