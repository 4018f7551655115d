import { describe, expect, it } from 'vitest';
import type { Feature } from '@vexil/core';
import { auditTrail, type Caller } from '../../../test/api';
import {
  setUpFeatureRoutes,
  h,
  team,
  type HomePage,
  createFeature,
  settings,
} from './features.routes.fixture';

setUpFeatureRoutes();

describe('feature lists', () => {
  it('GET /api/v1/features?filter= matches name, key or description in any case', async () => {
    await createFeature({ name: 'Dark mode', key: 'dark', description: 'Night THEME' });
    await createFeature({ name: 'Search', key: 'search-v2' });
    await createFeature({ name: 'Checkout', key: 'checkout' });
    const names = async (filter: string) =>
      (await team.readOnly.call('GET', `/api/v1/features?filter=${filter}`))
        .json<Feature[]>()
        .map((f) => f.name);
    expect(await names('')).toEqual(['Checkout', 'Dark mode', 'Search']);
    expect(await names('theme')).toEqual(['Dark mode']);
    expect(await names('SEARCH-V')).toEqual(['Search']);
    expect(await names('out')).toEqual(['Checkout']);
    expect((await team.outsider.call('GET', '/api/v1/features')).json<Feature[]>()).toEqual([]);
  });

  it('home lists: recent by last change, bookmarked and maintaining per user', async () => {
    const a = await createFeature({ name: 'A', key: 'a' });
    await createFeature({ name: 'B', key: 'b' }, team.editor.call);
    await team.admin.call('PUT', '/api/v1/projects/web/features', settings(a, { description: 'touched' }));
    const list = async (call: Caller, name: string) =>
      (await call('GET', `/api/v1/features/home?list=${name}`)).json<HomePage>().content.map((f) => f.key);
    expect(await list(team.readOnly.call, 'recent')).toEqual(['a', 'b']);
    expect(await list(team.admin.call, 'maintaining')).toEqual(['a']);
    expect(await list(team.editor.call, 'maintaining')).toEqual(['b']);
    expect((await team.editor.call('PUT', `/api/v1/features/${a.id}/bookmark/true`)).statusCode).toBe(200);
    expect(await list(team.editor.call, 'bookmarked')).toEqual(['a']);
    expect(await list(team.admin.call, 'bookmarked')).toEqual([]);
    const seen = await team.editor.call('GET', '/api/v1/projects/web/features/a');
    expect(seen.json<Feature>().bookmarked).toBe(true);
    await team.editor.call('PUT', `/api/v1/features/${a.id}/bookmark/false`);
    expect(await list(team.editor.call, 'bookmarked')).toEqual([]);
    expect((await team.outsider.call('GET', '/api/v1/features/home')).json<HomePage>()).toMatchObject({
      content: [],
      totalElements: 0,
    });
  });

  it('home lists: a control change counts as a change, and each row says when it last changed', async () => {
    const a = await createFeature({ name: 'A', key: 'a' });
    const b = await createFeature({ name: 'B', key: 'b' });
    const before = (await team.readOnly.call('GET', '/api/v1/features/home')).json<HomePage>();
    expect(before.content.map((f) => f.key)).toEqual(['b', 'a']);
    const control = a.controls.development!;
    const toggled = await team.admin.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
      lastModifiedDate: control.lastModifiedDate,
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    const after = (await team.readOnly.call('GET', '/api/v1/features/home')).json<HomePage>();
    expect(after.content.map((f) => f.key)).toEqual(['a', 'b']);
    const [first, second] = after.content;
    expect(Date.parse(first!.lastChangedDate)).toBeGreaterThan(Date.parse(second!.lastChangedDate));
    // The settings' own version is untouched by a control change (ADR 0013).
    expect(first!.lastModifiedDate).toBe(a.lastModifiedDate);
    expect(Date.parse(second!.lastChangedDate)).toBeGreaterThanOrEqual(Date.parse(b.lastModifiedDate));
  });

  it('home lists: pages of 50 with the total, sorted and filtered on the server', async () => {
    for (let i = 0; i < 120; i++)
      await createFeature({
        name: `F ${String(i).padStart(3, '0')}`,
        key: `f${i}`,
        ...(i % 2 === 0 ? { description: `even ${i}` } : {}),
      });
    const get = async (query: string) =>
      (await team.readOnly.call('GET', `/api/v1/features/home?${query}`)).json<HomePage>();
    const first = await get('');
    expect(first).toMatchObject({ page: 0, pageSize: 50, last: false, totalElements: 120 });
    expect(first.content).toHaveLength(50);
    expect(first.content[0]!.name).toBe('F 119');
    const third = await get('page=2');
    expect(third).toMatchObject({ page: 2, last: true, totalElements: 120 });
    expect(third.content.map((f) => f.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `F ${String(19 - i).padStart(3, '0')}`),
    );
    expect((await get('sortBy=name')).content.slice(0, 2).map((f) => f.name)).toEqual(['F 000', 'F 001']);
    expect(
      (await get('sortBy=name&sortDirection=desc&page=1')).content.slice(0, 2).map((f) => f.name),
    ).toEqual(['F 069', 'F 068']);
    expect((await get('sortBy=lastChanged&sortDirection=asc')).content[0]!.name).toBe('F 000');
    // Blank descriptions go last whichever way the column is sorted.
    const byDescription = await get('sortBy=description&sortDirection=desc&page=1');
    expect(byDescription.content.at(-1)!.description).toBe('');
    expect(byDescription.content[0]!.description).not.toBe('');
    const found = await get('query=F%2011&sortBy=name');
    expect(found.totalElements).toBe(10);
    expect(found.content.map((f) => f.name)).toEqual(Array.from({ length: 10 }, (_, i) => `F 11${i}`));
    expect((await get('query=even%2011')).content.map((f) => f.name)).toEqual([
      'F 118',
      'F 116',
      'F 114',
      'F 112',
      'F 110',
    ]);
  });

  it('home lists: sort by maintainer name, features without one last either way', async () => {
    const a = await createFeature({ name: 'A', key: 'a' });
    await createFeature({ name: 'B', key: 'b' }, team.editor.call);
    await team.admin.call('PUT', '/api/v1/projects/web/features', settings(a, { maintainerId: null }));
    await createFeature({ name: 'C', key: 'c' });
    const sorted = async (direction: 'asc' | 'desc') =>
      (await team.readOnly.call('GET', `/api/v1/features/home?sortBy=maintainer&sortDirection=${direction}`))
        .json<HomePage>()
        .content.map((f) => [f.maintainer?.name ?? '', f.name]);
    for (const direction of ['asc', 'desc'] as const) {
      const rows = await sorted(direction);
      const sign = direction === 'asc' ? 1 : -1;
      expect(rows.at(-1), direction).toEqual(['', 'A']);
      expect(rows.slice(0, 2), direction).toEqual(
        [...rows.slice(0, 2)].sort(
          ([m1, n1], [m2, n2]) => sign * m1!.localeCompare(m2!) || n1!.localeCompare(n2!),
        ),
      );
    }
  });

  it('home lists: refuses a bad query with 400 and needs a session', async () => {
    for (const query of [
      'list=all',
      'page=-1',
      'page=x',
      'pageSize=51',
      'sortBy=colour',
      'sortDirection=up',
    ]) {
      const res = await team.readOnly.call('GET', `/api/v1/features/home?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ title: string }>().title, query).toEqual(expect.any(String));
    }
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/features/home' })).statusCode).toBe(401);
  });

  it('pages an environment’s features 50, 100 or 500 at a time with that environment’s control only', async () => {
    for (let i = 0; i < 120; i++)
      await createFeature({ name: `F ${String(i).padStart(3, '0')}`, key: `f${i}` });
    type Page = { content: Feature[]; last: boolean; totalElements: number };
    const url = '/api/v1/projects/web/environments/development/features';
    const first = (await team.readOnly.call('GET', url)).json<Page>();
    expect(first.content).toHaveLength(50);
    expect(first).toMatchObject({ last: false, totalElements: 120 });
    expect(first.content[0]!.name).toBe('F 000');
    expect(Object.keys(first.content[0]!.controls)).toEqual(['development']);
    const third = (await team.readOnly.call('GET', `${url}?page=2&pageSize=50`)).json<Page>();
    expect(third.content.map((f) => f.name)[0]).toBe('F 100');
    expect(third).toMatchObject({ last: true });
    expect(third.content).toHaveLength(20);
    expect((await team.readOnly.call('GET', `${url}?pageSize=100`)).json<Page>().content).toHaveLength(100);
    expect((await team.readOnly.call('GET', `${url}?pageSize=30`)).statusCode).toBe(400);
    const found = (await team.readOnly.call('GET', `${url}?query=F%2011`)).json<Page>();
    expect(found.content.map((f) => f.name)).toEqual(Array.from({ length: 10 }, (_, i) => `F 11${i}`));
    expect((await team.outsider.call('GET', url)).statusCode).toBe(404);
  });

  it('finds a feature by project and key with a control per environment, and searches a project', async () => {
    await createFeature({ name: 'Checkout', key: 'checkout' });
    await createFeature({ name: 'Search', key: 'search' });
    const res = await team.readOnly.call('GET', '/api/v1/projects/web/features/checkout');
    expect(Object.keys(res.json<Feature>().controls)).toEqual(['production', 'development']);
    expect((await team.readOnly.call('GET', '/api/v1/projects/web/features/nope')).statusCode).toBe(404);
    const search = await team.readOnly.call('GET', '/api/v1/projects/web/features?query=sea');
    expect(search.json<Feature[]>().map((f) => f.key)).toEqual(['search']);
  });

  it('lists a project’s tags and the organisation’s members', async () => {
    await createFeature({ name: 'A', key: 'a', tags: ['payments', 'beta'] });
    await createFeature({ name: 'B', key: 'b', tags: ['beta', 'mobile'] });
    expect((await team.readOnly.call('GET', '/api/v1/projects/web/tags')).json()).toEqual([
      'beta',
      'mobile',
      'payments',
    ]);
    expect((await team.readOnly.call('GET', '/api/v1/projects/web/tags?query=PAY')).json()).toEqual([
      'payments',
    ]);
    const members = (await team.readOnly.call('GET', '/api/v1/members')).json<{ email: string }[]>();
    expect(members.map((m) => m.email).sort()).toEqual(
      [team.admin, team.productionEditor, team.editor, team.readOnly].map((u) => u.email).sort(),
    );
    const one = (
      await team.readOnly.call('GET', `/api/v1/members?query=${team.editor.email.slice(0, 12)}`)
    ).json();
    expect(one).toEqual([{ id: team.editor.id, name: 'Test User', email: team.editor.email }]);
  });
});

describe('PUT /api/v1/features/link', () => {
  it('links an issue key once, normalised, and audits it', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const res = await team.editor.call('PUT', '/api/v1/features/link', {
      featureId: feature.id,
      jiraIssueKey: 'shop-12',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Feature>().jiraIssueKeys).toEqual(['SHOP-12']);
    await team.editor.call('PUT', '/api/v1/features/link', {
      featureId: feature.id,
      jiraIssueKey: 'SHOP-12',
    });
    const after = await team.editor.call('GET', '/api/v1/projects/web/features/checkout');
    expect(after.json<Feature>().jiraIssues).toEqual([{ key: 'SHOP-12', title: '', url: '' }]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Feature Checkout linked to SHOP-12');
  });

  it('needs create permission and the same organisation', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const body = { featureId: feature.id, jiraIssueKey: 'SHOP-1' };
    expect((await team.readOnly.call('PUT', '/api/v1/features/link', body)).statusCode).toBe(403);
    expect((await team.outsider.call('PUT', '/api/v1/features/link', body)).statusCode).toBe(404);
  });
});
