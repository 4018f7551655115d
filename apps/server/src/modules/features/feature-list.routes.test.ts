import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Feature, FeatureControl, FeatureListPage, Rule } from '@vexil/core';
import { featureControls } from '../../db/schema/index';
import { createTeam, type Team } from '../../../test/api';
import { controlBody, createFeature, otherwise } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

/*
 * GET /api/v1/projects/{projectKey}/environments/{environmentKey}/features: the environment's feature
 * list sorted and filtered on the server (docs/product.md §2 "Feature list").
 */

let h: Harness;
let team: Team;

const LIST = '/api/v1/projects/web/environments/development/features';
const DAY_MS = 24 * 60 * 60 * 1000;

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

const create = (body: Record<string, unknown>) => createFeature(team.admin.call, 'web', body);

async function list(query = '', url = LIST): Promise<FeatureListPage> {
  const res = await team.readOnly.call('GET', `${url}${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FeatureListPage>();
}
const keys = async (query = '') => (await list(query)).content.map((f) => f.key);

async function saveControl(control: FeatureControl, changes: { enabled?: boolean; rules?: Rule[] }) {
  const res = await team.admin.call('PUT', '/api/v1/feature-controls/', {
    ...controlBody(control, changes),
    lastModifiedDate: control.lastModifiedDate,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FeatureControl>();
}

/** What an SDK's impressions leave behind: the control's last impression, `daysAgo` days back. */
async function lastImpression(control: FeatureControl, daysAgo: number) {
  await h.database.db
    .update(featureControls)
    .set({ lastImpressionAt: new Date(Date.now() - daysAgo * DAY_MS) })
    .where(eq(featureControls.id, control.id));
}

const half: Rule = {
  defaultRule: true,
  audience: null,
  variantSplits: [
    { variantKey: 'on', split: 50 },
    { variantKey: 'off', split: 50 },
  ],
};

describe('GET /api/v1/projects/{projectKey}/environments/{environmentKey}/features', () => {
  it('sorts by name unless told otherwise, and by key or last change either way', async () => {
    const banana = await create({ name: 'Banana', key: 'z-banana' });
    await create({ name: 'Apple', key: 'y-apple' });
    await create({ name: 'Cherry', key: 'x-cherry' });
    expect(await keys()).toEqual(['y-apple', 'z-banana', 'x-cherry']);
    expect(await keys('sortBy=name&sortDirection=desc')).toEqual(['x-cherry', 'z-banana', 'y-apple']);
    expect(await keys('sortBy=key')).toEqual(['x-cherry', 'y-apple', 'z-banana']);
    expect(await keys('sortBy=key&sortDirection=desc')).toEqual(['z-banana', 'y-apple', 'x-cherry']);
    // Last change: newest first by default.
    expect(await keys('sortBy=lastChanged')).toEqual(['x-cherry', 'y-apple', 'z-banana']);
    // Switching a control, in any environment, is a change of the feature.
    await saveControl(banana.controls.production!, { enabled: true });
    const byChange = await list('sortBy=lastChanged');
    expect(byChange.content.map((f) => f.key)).toEqual(['z-banana', 'x-cherry', 'y-apple']);
    expect(Date.parse(byChange.content[0]!.lastChangedDate)).toBeGreaterThan(
      Date.parse(byChange.content[1]!.lastChangedDate),
    );
    // The settings' own version stays (ADR 0013); the list says when anything changed.
    expect(byChange.content[0]!.lastModifiedDate).toBe(banana.lastModifiedDate);
    expect(await keys('sortBy=lastChanged&sortDirection=asc')).toEqual(['y-apple', 'x-cherry', 'z-banana']);
  });

  it('pages a sorted list without overlaps, ties broken by name then key', async () => {
    for (let i = 0; i < 60; i++)
      await create({ name: `Same ${i % 3}`, key: `k${String(i).padStart(2, '0')}` });
    const first = await list('sortBy=name&sortDirection=desc');
    const second = await list('sortBy=name&sortDirection=desc&page=1');
    expect(first).toMatchObject({ totalElements: 60, last: false });
    expect(second).toMatchObject({ totalElements: 60, last: true });
    const all = [...first.content, ...second.content].map((f) => f.key);
    expect(new Set(all).size).toBe(60);
    expect(all.slice(0, 3)).toEqual(['k02', 'k05', 'k08']);
  });

  it('shows each feature with its tags and filters by tags, keeping features that have all of them', async () => {
    await create({ name: 'A', key: 'a', tags: ['payments', 'beta'] });
    await create({ name: 'B', key: 'b', tags: ['beta', 'mobile'] });
    await create({ name: 'C', key: 'c', tags: ['payments', 'beta', 'mobile'] });
    await create({ name: 'D', key: 'd' });
    expect((await list()).content.map((f) => f.tags)).toEqual([
      ['payments', 'beta'],
      ['beta', 'mobile'],
      ['payments', 'beta', 'mobile'],
      [],
    ]);
    expect(await keys('tag=beta')).toEqual(['a', 'b', 'c']);
    expect(await keys('tag=beta&tag=mobile')).toEqual(['b', 'c']);
    expect(await keys('tag=payments&tag=mobile')).toEqual(['c']);
    // Tags are normalised as saved ones are.
    expect(await keys('tag=Payments')).toEqual(['a', 'c']);
    expect(await keys('tag=nothing')).toEqual([]);
    // With the search, the sort and the total.
    const found = await list('tag=beta&query=c&sortBy=key&sortDirection=desc');
    expect(found).toMatchObject({ totalElements: 1, last: true });
    expect(found.content.map((f) => f.key)).toEqual(['c']);
  });

  it('filters by on/off, staleness and targeting in this environment, as the statuses shown say', async () => {
    const features: Feature[] = [];
    for (const key of ['off-never', 'single', 'targeted', 'on-stale', 'off-stale', 'active', 'prod-only'])
      features.push(await create({ name: key, key }));
    const dev = (key: string) => features.find((f) => f.key === key)!.controls.development!;
    await saveControl(dev('single'), { enabled: true });
    await saveControl(dev('targeted'), { enabled: true, rules: [half] });
    await saveControl(dev('on-stale'), { enabled: true, rules: [otherwise('off')] });
    await saveControl(dev('active'), { enabled: true, rules: [half] });
    await lastImpression(dev('on-stale'), 10);
    await lastImpression(dev('off-stale'), 7.5);
    await lastImpression(dev('active'), 2);
    // The other environment's control does not count here.
    const prodOnly = features.find((f) => f.key === 'prod-only')!.controls.production!;
    await saveControl(prodOnly, { enabled: true });
    await lastImpression(prodOnly, 30);

    expect(await keys('state=on')).toEqual(['active', 'on-stale', 'single', 'targeted']);
    expect(await keys('state=off')).toEqual(['off-never', 'off-stale', 'prod-only']);
    expect(await keys('stale=true')).toEqual(['off-stale', 'on-stale']);
    expect(await keys('stale=false')).toEqual(['active', 'off-never', 'prod-only', 'single', 'targeted']);
    expect(await keys('targeting=off')).toEqual(['off-never', 'off-stale', 'prod-only']);
    expect(await keys('targeting=single')).toEqual(['on-stale', 'single']);
    expect(await keys('targeting=targeted')).toEqual(['active', 'targeted']);
    expect(await keys('state=on&stale=false&targeting=targeted')).toEqual(['active', 'targeted']);

    // Each filter keeps exactly the rows whose shown control says so.
    const shown = (await list()).content;
    const control = (f: Feature) => f.controls.development!;
    const agree: [string, (f: Feature) => boolean][] = [
      ['state=on', (f) => control(f).enabled],
      ['state=off', (f) => !control(f).enabled],
      ['stale=true', (f) => control(f).trafficStatus === 'inactive'],
      ['stale=false', (f) => control(f).trafficStatus !== 'inactive'],
      ...(['off', 'targeted', 'single'] as const).map((status): [string, (f: Feature) => boolean] => [
        `targeting=${status}`,
        (f) => control(f).targetingStatus === status,
      ]),
    ];
    for (const [query, keeps] of agree) {
      const filtered = await list(query);
      expect(
        filtered.content.map((f) => f.key),
        query,
      ).toEqual(shown.filter(keeps).map((f) => f.key));
      expect(filtered.totalElements, query).toBe(filtered.content.length);
    }
  });

  it('refuses a bad sort or filter with 400 naming the field', async () => {
    const cases: [string, string, string][] = [
      ['sortBy=status', 'sortBy', 'Sort must be name, key or lastChanged.'],
      ['sortDirection=up', 'sortDirection', 'Sort direction must be asc or desc.'],
      ['state=maybe', 'state', 'State must be on or off.'],
      ['stale=yes', 'stale', 'Stale must be true or false.'],
      ['targeting=everyone', 'targeting', 'Targeting must be off, targeted or single.'],
      ['tag=', 'tag.0', 'Tag is required'],
    ];
    for (const [query, field, message] of cases) {
      const res = await team.readOnly.call('GET', `${LIST}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({
        title: message,
        errors: [{ field: `querystring.${field}`, message }],
      });
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `tag=t${i}`).join('&');
    const res = await team.readOnly.call('GET', `${LIST}?${tooMany}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'At most 50 tags are allowed.' });
    expect((await h.app.inject({ method: 'GET', url: LIST })).statusCode).toBe(401);
  });

  it('offers the project’s tags for the filter', async () => {
    await create({ name: 'A', key: 'a', tags: ['payments', 'beta'] });
    await create({ name: 'B', key: 'b', tags: ['beta', 'mobile'] });
    const res = await team.readOnly.call('GET', '/api/v1/projects/web/tags');
    expect(res.json()).toEqual(['beta', 'mobile', 'payments']);
  });
});
