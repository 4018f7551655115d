import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MASKED_SERVER_SDK_KEY, SERVER_SDK_KEY_PATTERN, type Environment, type Project } from '@vexil/core';
import { environments } from '../../db/schema/index';
import { auditTrail } from '../../../test/api';
import {
  setUpEnvironmentRoutes,
  h,
  team,
  staging,
  started,
  createEnvironment,
} from './environments.routes.fixture';

setUpEnvironmentRoutes();

describe('POST /api/v1/environments/{id}/keys/{kind}/rotate', () => {
  it('replaces the server key only, and the old key is no longer the environment’s', async () => {
    const production = started('production');
    const res = await team.admin.call('POST', `/api/v1/environments/${production.id}/keys/server/rotate`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json<Environment>();
    expect(rotated.apiKey).toMatch(SERVER_SDK_KEY_PATTERN);
    expect(rotated.apiKey).not.toBe(production.apiKey);
    expect(rotated.jsApiKey).toBe(production.jsApiKey);
    const stored = await h.database.db
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.serverApiKey, production.apiKey));
    expect(stored).toEqual([]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('The server SDK key of Production rotated');
    expect(item!.description).not.toContain(rotated.apiKey);
    expect(item!.description).not.toContain(production.apiKey);
  });

  it('replaces the JS client key', async () => {
    const production = started('production');
    const res = await team.admin.call('POST', `/api/v1/environments/${production.id}/keys/js/rotate`);
    expect(res.json<Environment>().jsApiKey).not.toBe(production.jsApiKey);
    expect(res.json<Environment>().apiKey).toBe(production.apiKey);
  });

  it('is for organisation admins of the same organisation only', async () => {
    const production = started('production');
    for (const member of [team.productionEditor, team.editor, team.readOnly, team.outsider]) {
      const res = await member.call('POST', `/api/v1/environments/${production.id}/keys/server/rotate`);
      expect(res.statusCode).toBe(member === team.outsider ? 404 : 403);
    }
    const after = await team.admin.call('GET', '/api/v1/environments/web/production');
    expect(after.json<Environment>().apiKey).toBe(production.apiKey);
  });

  it('rejects an unknown key kind', async () => {
    const production = started('production');
    const res = await team.admin.call('POST', `/api/v1/environments/${production.id}/keys/admin/rotate`);
    expect(res.statusCode).toBe(400);
  });
});

describe('server SDK keys by role', () => {
  // Written out by hand from the rule "only those who may change the environment's flags see its
  // server key": editors outside production, production editors and admins everywhere.
  const VISIBLE: Record<'admin' | 'productionEditor' | 'editor' | 'readOnly', string[]> = {
    admin: ['production', 'development', 'live'],
    productionEditor: ['production', 'development', 'live'],
    editor: ['development'],
    readOnly: [],
  };

  it.each(Object.entries(VISIBLE))(
    '%s sees the server keys of %j, every other one masked, and every JS client key',
    async (role, visible) => {
      // Tagged production without the marker: protected all the same.
      await createEnvironment({ ...staging, name: 'Live', key: 'live', tags: ['Production'] });
      const real = new Map(
        (await team.admin.call('GET', '/api/v1/projects/web'))
          .json<Project>()
          .environments.map((e) => [e.key, e]),
      );
      expect([...real.keys()]).toEqual(['development', 'production', 'live']);
      for (const environment of real.values()) expect(environment.apiKey).toMatch(SERVER_SDK_KEY_PATTERN);
      const call = team[role as keyof typeof VISIBLE].call;

      const expectKeys = (seen: Environment[]) => {
        expect(seen.map((e) => e.key)).toEqual([...real.keys()]);
        for (const environment of seen) {
          const { apiKey, jsApiKey } = real.get(environment.key)!;
          expect(environment.jsApiKey).toBe(jsApiKey);
          expect(environment.apiKey, environment.key).toBe(
            visible.includes(environment.key) ? apiKey : MASKED_SERVER_SDK_KEY,
          );
        }
      };
      const list = await call('GET', '/api/v1/projects');
      expect(list.statusCode).toBe(200);
      expectKeys(list.json<Project[]>().find((p) => p.key === 'web')!.environments);
      expectKeys((await call('GET', '/api/v1/projects/web')).json<Project>().environments);
      const one: Environment[] = [];
      for (const key of real.keys()) {
        const res = await call('GET', `/api/v1/environments/web/${key}`);
        expect(res.statusCode).toBe(200);
        one.push(res.json<Environment>());
      }
      expectKeys(one);
    },
  );

  it('never puts a server key in the initial payload', async () => {
    const res = await team.readOnly.call('GET', '/api/v1/initial');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('sdk-srv-env-');
  });
});
