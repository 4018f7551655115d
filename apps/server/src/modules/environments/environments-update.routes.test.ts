import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;
let staging: Environment;

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
  const res = await team.admin.call('POST', '/api/v1/environments/', {
    projectKey: 'web',
    name: 'Staging',
    key: 'staging',
    url: 'https://staging.example.com',
    color: '#00aa55',
    local: true,
    production: true,
    tags: ['eu'],
  });
  expect(res.statusCode, res.body).toBe(201);
  staging = res.json<Environment>();
});

/** The fields a PUT must send: the id, project, key, name and the version it is based on. */
const required = (environment: Environment) => ({
  id: environment.id,
  projectKey: 'web',
  key: environment.key,
  name: 'Staging EU',
  lastModifiedDate: environment.lastModifiedDate,
});

describe('PUT /api/v1/environments/ with fields left out', () => {
  it('keeps the colour, url, local, production and tags it does not send', async () => {
    const res = await team.admin.call('PUT', '/api/v1/environments/', required(staging));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Environment>()).toMatchObject({
      name: 'Staging EU',
      url: 'https://staging.example.com',
      color: '#00aa55',
      local: true,
      production: true,
      tags: ['eu'],
    });
    const stored = await team.admin.call('GET', '/api/v1/environments/web/staging');
    expect(stored.json<Environment>()).toMatchObject({ color: '#00aa55', production: true, tags: ['eu'] });
  });

  it('still changes what it sends, and refuses a bad colour with the field message', async () => {
    const res = await team.admin.call('PUT', '/api/v1/environments/', {
      ...required(staging),
      color: '#ff0000',
      url: '',
      production: false,
      tags: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Environment>()).toMatchObject({
      color: '#ff0000',
      url: '',
      local: true,
      production: false,
      tags: [],
    });
    const bad = await team.admin.call('PUT', '/api/v1/environments/', {
      ...required(res.json<Environment>()),
      color: 'green',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'invalid',
      errors: [{ field: 'color', message: 'Color must be a hex colour such as #1273de.' }],
    });
  });
});
