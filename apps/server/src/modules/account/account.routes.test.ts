import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UI_FLAGS } from '@vexil/core';
import { bearer, createHarness, randomIp, seedDemo, type Harness } from '../../../test/helpers';

type Initial = {
  principalUser: {
    id: string;
    email: string;
    firstName: string;
    authorities: string[];
    settings: { introReadDate: string | null };
  };
  organisation: { name: string; domain: string; settings: { jiraEnabled: boolean } };
  projects: {
    key: string;
    name: string;
    environments: { key: string; production: boolean; color: string }[];
  }[];
  subscription: unknown;
  flags: Record<string, boolean>;
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
});

async function demoAdminToken() {
  await seedDemo(h, 'demo-password');
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/authenticate',
    remoteAddress: randomIp(),
    payload: { username: 'admin@example.com', password: 'demo-password', domain: 'demo' },
  });
  return res.json<{ id_token: string }>().id_token;
}

describe('GET /api/v1/initial', () => {
  it('returns the principal, organisation, projects with environments, and every UI flag on', async () => {
    const token = await demoAdminToken();
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const body = res.json<Initial>();
    expect(body.principalUser.email).toBe('admin@example.com');
    expect(body.principalUser.authorities).toEqual(['ROLE_ORGANISATION_ADMIN']);
    expect(body.principalUser.settings.introReadDate).toBeNull();
    expect(body.organisation).toMatchObject({
      name: 'Demo',
      domain: 'demo',
      settings: { jiraEnabled: false },
    });
    expect(body.projects).toHaveLength(1);
    expect(body.projects[0]!.environments.map((e) => [e.key, e.production]).sort()).toEqual([
      ['development', false],
      ['production', true],
    ]);
    expect(Object.keys(body.flags).sort()).toEqual([...UI_FLAGS].sort());
    expect(Object.values(body.flags).every(Boolean)).toBe(true);
  });

  it('does not hand out SDK keys in the initial payload', async () => {
    const token = await demoAdminToken();
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    expect(res.body).not.toMatch(/sdk-(srv|js)-env-/);
  });

  it('answers 401 without a session', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/initial' });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ title: string }>().title).toBeTruthy();
  });
});

describe('VEXIL_UI_FLAGS', () => {
  it('turns the named flags off in the initial payload and the public context', async () => {
    const other = await createHarness({ VEXIL_UI_FLAGS: 'billing=off, profile=off' });
    try {
      const context = await other.app.inject({ method: 'GET', url: '/api/v1/public/context' });
      const flags = context.json<{ flags: Record<string, boolean> }>().flags;
      expect(flags.billing).toBe(false);
      expect(flags.profile).toBe(false);
      expect(flags.home).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/v1/public/context', () => {
  it('names the organisation of the sub-domain', async () => {
    await seedDemo(h);
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/v1/public/context',
      headers: { host: 'demo.vexil.test' },
    });
    expect(res.json<{ organisation: { name: string } }>().organisation.name).toBe('Demo');
  });

  it('tells the base domain, where the bare sign-in page sends people to their sub-domain', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/public/context' });
    expect(res.json()).toMatchObject({ organisation: null, baseDomain: 'vexil.test', sso: null });
  });

  it('names the organisation of a ?domain= and null for an unknown one', async () => {
    await seedDemo(h);
    const known = await h.app.inject({ method: 'GET', url: '/api/v1/public/context?domain=demo' });
    const unknown = await h.app.inject({ method: 'GET', url: '/api/v1/public/context?domain=nobody' });
    expect(known.json<{ organisation: { domain: string } }>().organisation.domain).toBe('demo');
    expect(unknown.json<{ organisation: null }>().organisation).toBeNull();
  });
});

describe('PUT /api/v1/users/{id}/settings/intro/read', () => {
  it('records when the user read the introduction', async () => {
    const token = await demoAdminToken();
    const initial = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    const { id } = initial.json<Initial>().principalUser;
    const res = await h.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${id}/settings/intro/read`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const after = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    expect(after.json<Initial>().principalUser.settings.introReadDate).toEqual(expect.any(String));
  });

  it("refuses to change another user's settings", async () => {
    const token = await demoAdminToken();
    const initial = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    const other = await h.createUser(
      initial.json<{ organisation: { id: string } }>().organisation.id,
      'demo',
    );
    const res = await h.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${other.id}/settings/intro/read`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(403);
  });
});
