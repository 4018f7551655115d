import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '@vexil/core';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { sdkFixture } from '../../../test/sdk';

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
  await h.database.reset();
  team = await createTeam(h);
  ({ development } = await sdkFixture(team.admin.call));
  await h.app.sdk.store.settled();
  const rows = [
    {
      featureKey: 'checkout',
      evaluatedVariant: 'on',
      user: { id: 'ada', attributes: { tier: 'gold' } },
      timestamp: '2026-11-20T10:00:00Z',
    },
    {
      featureKey: 'checkout',
      evaluatedVariant: 'off',
      user: { id: 'bob', attributes: { tier: ['silver'], age: 30 } },
      timestamp: '2026-11-21T10:00:00Z',
    },
  ];
  await h.app.inject({
    method: 'POST',
    url: '/api/sdk/v1/events',
    headers: { authorization: `Bearer ${development.apiKey}` },
    payload: JSON.stringify(rows),
  });
  await h.app.sdk.ingestion.flush();
});

type Page = {
  content: { id: string; attributes: Record<string, unknown>; lastSeenDate: string }[];
  totalElements: number;
};

describe('GET /api/v1/projects/{p}/environments/{e}/users', () => {
  it('lists the users SDKs reported, most recently seen first, with their attributes', async () => {
    const res = await team.readOnly.call('GET', '/api/v1/projects/web/environments/development/users');
    expect(res.statusCode).toBe(200);
    const page = res.json<Page>();
    expect(page.totalElements).toBe(2);
    expect(page.content.map((u) => [u.id, u.attributes])).toEqual([
      ['bob', { tier: ['silver'], age: 30 }],
      ['ada', { tier: 'gold' }],
    ]);
    const found = await team.readOnly.call(
      'GET',
      '/api/v1/projects/web/environments/development/users?query=AD',
    );
    expect(found.json<Page>().content.map((u) => u.id)).toEqual(['ada']);
    expect(
      (await team.readOnly.call('GET', '/api/v1/projects/web/environments/production/users')).json<Page>()
        .content,
    ).toEqual([]);
    expect(
      (await team.outsider.call('GET', '/api/v1/projects/web/environments/development/users')).statusCode,
    ).toBe(404);
  });

  it('forgets a user for editors, audited, and not for read-only users', async () => {
    expect(
      (await team.readOnly.call('DELETE', '/api/v1/projects/web/environments/development/users/ada'))
        .statusCode,
    ).toBe(403);
    expect(
      (await team.editor.call('DELETE', '/api/v1/projects/web/environments/development/users/ada'))
        .statusCode,
    ).toBe(204);
    expect(
      (await team.editor.call('DELETE', '/api/v1/projects/web/environments/development/users/ada'))
        .statusCode,
    ).toBe(404);
    const page = (
      await team.admin.call('GET', '/api/v1/projects/web/environments/development/users')
    ).json<Page>();
    expect(page.content.map((u) => u.id)).toEqual(['bob']);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('User ada removed from Development');
  });
});
