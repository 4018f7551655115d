import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Feature, Project } from '@vexil/core';
import { targetValues } from '../../db/schema/index';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;
let project: Project;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  project = (
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })
  ).json<Project>();
});

describe('POST /api/v1/projects/{projectKey}/targets', () => {
  it('declares a target that the project then lists', async () => {
    const res = await team.editor.call('POST', '/api/v1/projects/web/targets', {
      key: 'plan',
      name: 'Plan',
      type: 'string',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ key: 'plan', name: 'Plan', type: 'string' });
    expect((await team.readOnly.call('GET', '/api/v1/projects/web/targets')).json()).toEqual([
      { key: 'plan', name: 'Plan', type: 'string' },
    ]);
    expect((await team.readOnly.call('GET', '/api/v1/projects/web')).json<Project>().targets).toEqual([
      { key: 'plan', name: 'Plan', type: 'string' },
    ]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Target Plan created in Web shop');
  });

  it('requires name, key and type, and refuses a key already declared', async () => {
    const empty = await team.admin.call('POST', '/api/v1/projects/web/targets', {});
    expect(empty.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'key', message: 'Key is required' },
      { field: 'name', message: 'Name is required' },
      { field: 'type', message: 'Type is required' },
    ]);
    await team.admin.call('POST', '/api/v1/projects/web/targets', {
      key: 'plan',
      name: 'Plan',
      type: 'string',
    });
    const again = await team.admin.call('POST', '/api/v1/projects/web/targets', {
      key: 'plan',
      name: 'P',
      type: 'number',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ errors: [{ field: 'key' }] });
  });

  it('is for editors and above, in the same organisation', async () => {
    const body = { key: 'plan', name: 'Plan', type: 'string' };
    expect((await team.readOnly.call('POST', '/api/v1/projects/web/targets', body)).statusCode).toBe(403);
    expect((await team.outsider.call('POST', '/api/v1/projects/web/targets', body)).statusCode).toBe(404);
  });
});

describe('GET /api/v1/projects/{projectKey}/targets/{target}/values', () => {
  it('suggests values used in rules and values seen from SDK users, filtered by the query', async () => {
    const feature: Feature = await createFeature(team.admin.call, 'web', {
      name: 'Checkout',
      key: 'checkout',
    });
    await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(feature.controls.development!, {
        rules: [rule('country', 'in', ['nz', 'au']), otherwise()],
      }),
    );
    await h.database.db.insert(targetValues).values([
      { organisationId: team.admin.organisationId, projectId: project.id, targetKey: 'country', value: 'gb' },
      { organisationId: team.admin.organisationId, projectId: project.id, targetKey: 'plan', value: 'gold' },
    ]);
    const all = await team.readOnly.call('GET', '/api/v1/projects/web/targets/country/values');
    expect(all.json()).toEqual(['au', 'nz', 'gb']);
    const filtered = await team.readOnly.call('GET', '/api/v1/projects/web/targets/country/values?query=N');
    expect(filtered.json()).toEqual(['nz']);
    expect((await team.outsider.call('GET', '/api/v1/projects/web/targets/country/values')).statusCode).toBe(
      404,
    );
  });
});
