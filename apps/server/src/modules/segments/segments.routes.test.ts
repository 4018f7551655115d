import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Feature, Segment } from '@vexil/core';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

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
  await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
});

const beta = { projectKey: 'web', environmentKey: 'development', key: 'Beta Testers', name: 'Beta testers' };

async function createSegment(body: Record<string, unknown> = beta, call = team.admin.call): Promise<Segment> {
  const res = await call('POST', '/api/v2/segments/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Segment>();
}

describe('segments', () => {
  it('creates a segment with a cleaned key and lists it for its environment only', async () => {
    const segment = await createSegment({ ...beta, description: 'Early adopters' });
    expect(segment).toMatchObject({
      key: 'beta-testers',
      name: 'Beta testers',
      description: 'Early adopters',
    });
    const listed = await team.readOnly.call('GET', '/api/v2/segments/web/development');
    expect(listed.json<Segment[]>().map((s) => s.key)).toEqual(['beta-testers']);
    expect(
      (await team.readOnly.call('GET', '/api/v2/segments/web/development?query=EARLY')).json<Segment[]>(),
    ).toHaveLength(1);
    expect(
      (await team.readOnly.call('GET', '/api/v2/segments/web/development?query=zzz')).json<Segment[]>(),
    ).toEqual([]);
    expect((await team.readOnly.call('GET', '/api/v2/segments/web/production')).json<Segment[]>()).toEqual(
      [],
    );
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Segment Beta testers created in Development');
  });

  it('requires key and name, and refuses a key the environment has', async () => {
    const res = await team.admin.call('POST', '/api/v2/segments/', { ...beta, key: '', name: '' });
    expect(res.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'key', message: 'Key is required' },
      { field: 'name', message: 'Name is required' },
    ]);
    await createSegment();
    const again = await team.admin.call('POST', '/api/v2/segments/', beta);
    expect(again.statusCode).toBe(400);
  });

  it('checks create permission against the production marker', async () => {
    await createSegment(beta, team.editor.call);
    const production = { ...beta, environmentKey: 'production' };
    const res = await team.editor.call('POST', '/api/v2/segments/', production);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      title: 'Only a production editor can create segments in a production environment.',
    });
    await createSegment(production, team.productionEditor.call);
    expect((await team.readOnly.call('POST', '/api/v2/segments/', { ...beta, key: 'x' })).statusCode).toBe(
      403,
    );
    expect((await team.outsider.call('POST', '/api/v2/segments/', { ...beta, key: 'x' })).statusCode).toBe(
      404,
    );
  });

  it('edits name and description but not the key', async () => {
    const segment = await createSegment();
    const res = await team.admin.call('PUT', '/api/v2/segments/', {
      ...beta,
      id: segment.id,
      key: 'beta-testers',
      name: 'Beta group',
      description: 'Signed up for betas',
    });
    expect(res.json<Segment>()).toMatchObject({ name: 'Beta group', description: 'Signed up for betas' });
    const rekey = await team.admin.call('PUT', '/api/v2/segments/', {
      ...beta,
      id: segment.id,
      key: 'other',
    });
    expect(rekey.statusCode).toBe(400);
    const outsider = await team.outsider.call('PUT', '/api/v2/segments/', {
      ...beta,
      id: segment.id,
      key: 'beta-testers',
    });
    expect(outsider.statusCode).toBe(404);
  });

  it('deletes a segment, but not while a rule uses it', async () => {
    const segment = await createSegment();
    await team.admin.call('POST', '/api/v1/projects/web/targets', {
      key: 'cohorts',
      name: 'Cohorts',
      type: 'segment',
    });
    const feature: Feature = await createFeature(team.admin.call, 'web', {
      name: 'Checkout',
      key: 'checkout',
    });
    const control = feature.controls.development!;
    await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(control, { rules: [rule('cohorts', 'in', ['beta-testers']), otherwise()] }),
    );
    const used = await team.admin.call('DELETE', `/api/v2/segments/${segment.id}`);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({
      title:
        'The segment "Beta testers" is used by the targeting of "Checkout". Remove it from those rules first.',
    });
    await team.admin.call('PUT', '/api/v1/feature-controls/', controlBody(control, { rules: [otherwise()] }));
    expect((await team.readOnly.call('DELETE', `/api/v2/segments/${segment.id}`)).statusCode).toBe(403);
    expect((await team.outsider.call('DELETE', `/api/v2/segments/${segment.id}`)).statusCode).toBe(404);
    expect((await team.editor.call('DELETE', `/api/v2/segments/${segment.id}`)).statusCode).toBe(204);
    expect((await team.admin.call('GET', '/api/v2/segments/web/development')).json()).toEqual([]);
  });
});
