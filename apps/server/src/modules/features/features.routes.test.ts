import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DENIAL_MESSAGES,
  type Environment,
  type Feature,
  type HomeFeaturePage,
  type Project,
} from '@vexil/core';
import { subscriptions } from '../../db/schema/index';
import { auditTrail, createTeam, subscribe, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;
let project: Project;

type HomePage = HomeFeaturePage;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  const created = await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  project = created.json<Project>();
  expect(project.key).toBe('web');
});

async function createFeature(
  body: Record<string, unknown>,
  call: Caller = team.admin.call,
): Promise<Feature> {
  const res = await call('POST', '/api/v1/projects/web/features', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Feature>();
}

function settings(feature: Feature, changes: Record<string, unknown> = {}) {
  return {
    id: feature.id,
    name: feature.name,
    key: feature.key,
    description: feature.description,
    permanent: feature.permanent,
    variants: feature.variants,
    tags: feature.tags,
    jiraIssueKeys: feature.jiraIssueKeys,
    goals: feature.goals,
    maintainerId: feature.maintainer?.id ?? null,
    ...changes,
  };
}

describe('POST /api/v1/projects/{projectKey}/features', () => {
  it('creates a feature with On and Off, off in every environment, maintained by its creator', async () => {
    const feature = await createFeature({
      name: 'New checkout',
      key: 'new-checkout',
      description: 'One page',
    });
    expect(feature).toMatchObject({
      name: 'New checkout',
      key: 'new-checkout',
      description: 'One page',
      projectKey: 'web',
      project: { key: 'web', name: 'Web shop' },
      variants: [
        { key: 'on', name: 'On', description: '' },
        { key: 'off', name: 'Off', description: '' },
      ],
      bookmarked: false,
      maintainer: { id: team.admin.id, email: team.admin.email },
    });
    expect(Object.keys(feature.controls)).toEqual(['production', 'development']);
    expect(feature.controls.production).toMatchObject({
      key: 'new-checkout',
      environmentKey: 'production',
      enabled: false,
      offVariantKey: 'off',
      available: false,
      trafficStatus: 'never',
      targetingStatus: 'off',
      rulesDescription: 'Off: everyone gets Off.',
      rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
      statistics: { lastImpressionDate: null, impressions: { today: 0 } },
    });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Feature New checkout created in Web shop');
  });

  it('normalises the key', async () => {
    expect((await createFeature({ name: 'Checkout', key: 'Check Out!' })).key).toBe('check-out');
    expect((await createFeature({ name: 'Bad', key: 'Bad Key With Spaces!!' })).key).toBe(
      'bad-key-with-spaces',
    );
  });

  it('refuses a key the project already has instead of creating another key', async () => {
    await createFeature({ name: 'Card freeze', key: 'card-freeze' });
    const res = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'Card freeze',
      key: 'Card freeze',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      title: 'A feature with the key "card-freeze" already exists in this project.',
      errors: [
        { field: 'key', message: 'A feature with the key "card-freeze" already exists in this project.' },
      ],
      code: 'invalid',
    });
    const list = await team.admin.call('GET', '/api/v1/projects/web/features?query=card');
    expect(list.json<Feature[]>().map((feature) => feature.key)).toEqual(['card-freeze']);
    // The same key in another project is another feature.
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Mobile', key: 'mob' });
    const other = await team.admin.call('POST', '/api/v1/projects/mob/features', {
      name: 'Card freeze',
      key: 'card-freeze',
    });
    expect(other.statusCode).toBe(201);
  });

  it('takes the key of a deleted feature again', async () => {
    const gone = await createFeature({ name: 'Old banner', key: 'old-banner' });
    const deleted = await team.admin.call('DELETE', `/api/v1/project/web/features/${gone.id}/`);
    expect(deleted.statusCode).toBe(204);
    expect((await createFeature({ name: 'Old banner', key: 'old-banner' })).key).toBe('old-banner');
  });

  it('normalises issue keys and tags', async () => {
    const feature = await createFeature({
      name: 'A',
      key: 'a',
      jiraIssueKeys: ['abc 7'],
      tags: ['Team A', 'team a'],
    });
    expect(feature.jiraIssueKeys).toEqual(['ABC-7']);
    expect(feature.tags).toEqual(['team-a']);
  });

  it('answers the settings form messages', async () => {
    const res = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: '',
      key: '',
      variants: [{ key: '', name: '' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required' },
        { field: 'key', message: 'Key is required' },
        { field: 'variants.0.key', message: 'Key is required' },
        { field: 'variants.0.name', message: 'Name is required' },
      ]),
    );
    const oneVariant = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'A',
      key: 'a',
      variants: [{ key: 'on', name: 'On' }],
    });
    expect(oneVariant.json()).toMatchObject({
      errors: [{ field: 'variants', message: 'At least two variants are required.' }],
    });
  });

  it('keeps a JSON value per variant, and refuses one over 32 KB', async () => {
    const feature = await createFeature({
      name: 'Theme',
      key: 'theme',
      variants: [
        { key: 'blue', name: 'Blue', value: { primary: '#00f' } },
        { key: 'red', name: 'Red' },
      ],
    });
    expect(feature.variants).toEqual([
      { key: 'blue', name: 'Blue', description: '', value: { primary: '#00f' } },
      { key: 'red', name: 'Red', description: '' },
    ]);
    expect(feature.controls.production).toMatchObject({ offVariantKey: 'red' });
    const big = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'Big',
      key: 'big',
      variants: [
        { key: 'a', name: 'A', value: 'x'.repeat(33 * 1024) },
        { key: 'b', name: 'B' },
      ],
    });
    expect(big.statusCode).toBe(400);
  });

  it('needs create permission: editors may, read-only users and other organisations may not', async () => {
    await createFeature({ name: 'By editor', key: 'by-editor' }, team.editor.call);
    const readOnly = await team.readOnly.call('POST', '/api/v1/projects/web/features', {
      name: 'X',
      key: 'x',
    });
    expect(readOnly.statusCode).toBe(403);
    const outsider = await team.outsider.call('POST', '/api/v1/projects/web/features', {
      name: 'X',
      key: 'x',
    });
    expect(outsider.statusCode).toBe(404);
  });

  it('enforces maxFeatures: "Only 1 feature(s) allowed."', async () => {
    await subscribe(h, team.admin.organisationId, { maxFeatures: 1 });
    await createFeature({ name: 'One', key: 'one' });
    const res = await team.admin.call('POST', '/api/v1/projects/web/features', { name: 'Two', key: 'two' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'Only 1 feature(s) allowed.', code: 'limit_reached' });
  });

  it('refuses changes while the subscription is inactive', async () => {
    await h.database.db.insert(subscriptions).values({
      organisationId: team.admin.organisationId,
      status: 'inactive',
    });
    const res = await team.admin.call('POST', '/api/v1/projects/web/features', { name: 'One', key: 'one' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ title: 'Your account is inactive. Please purchase a subscription.' });
  });
});

describe('PUT /api/v1/projects/{projectKey}/features', () => {
  it('updates settings across environments and adds variants', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const res = await team.productionEditor.call(
      'PUT',
      '/api/v1/projects/web/features',
      settings(feature, {
        name: 'One-page checkout',
        description: 'Faster',
        tags: ['payments'],
        variants: [...feature.variants, { key: 'beta', name: 'Beta', description: 'Early users' }],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Feature>()).toMatchObject({
      name: 'One-page checkout',
      description: 'Faster',
      tags: ['payments'],
      variants: [{ key: 'on' }, { key: 'off' }, { key: 'beta', name: 'Beta' }],
    });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.description).toContain('- name: `Checkout` → `One-page checkout`');
    expect(item!.description).toContain('- variants added: `beta`');
  });

  describe('what a production environment serves', () => {
    const production = () => project.environments.find((e) => e.key === 'production')!;

    async function productionPayload(environment: Environment = production()) {
      await h.app.sdk.store.settled();
      const res = await h.app.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: `Bearer ${environment.apiKey}` },
      });
      expect(res.statusCode).toBe(200);
      return res.json<Record<string, { variants: unknown[] }>>();
    }

    async function banner() {
      return createFeature({
        name: 'Banner',
        key: 'banner',
        variants: [
          { key: 'on', name: 'On', value: { colour: 'green', size: 2 } },
          { key: 'off', name: 'Off' },
        ],
      });
    }

    it.each([
      [
        'changing a variant value',
        (f: Feature) => [{ ...f.variants[0], value: { colour: 'red' } }, f.variants[1]],
      ],
      ['changing a variant name', (f: Feature) => [{ ...f.variants[0], name: 'Shown' }, f.variants[1]]],
      ['changing the variant order', (f: Feature) => [f.variants[1], f.variants[0]]],
      ['adding a variant', (f: Feature) => [...f.variants, { key: 'beta', name: 'Beta' }]],
    ])('refuses a non-production editor %s, leaving production as it was', async (_, change) => {
      const feature = await banner();
      const before = await productionPayload();
      const res = await team.editor.call(
        'PUT',
        '/api/v1/projects/web/features',
        settings(feature, { name: 'Hijacked', variants: change(feature) }),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        title: DENIAL_MESSAGES.featureVariantsProduction,
        code: 'production_rights_required',
      });
      expect(await productionPayload()).toEqual(before);
      const after = await team.admin.call('GET', '/api/v1/projects/web/features/banner');
      expect(after.json<Feature>()).toMatchObject({ name: 'Banner', variants: feature.variants });
    });

    it('lets a non-production editor change what no SDK receives', async () => {
      const feature = await banner();
      const before = await productionPayload();
      const res = await team.editor.call(
        'PUT',
        '/api/v1/projects/web/features',
        settings(feature, {
          name: 'Top banner',
          description: 'Shown on every page',
          tags: ['marketing'],
          permanent: true,
          // The same values sent back, in another key order and with a description: not a change.
          variants: [
            { ...feature.variants[0], value: { size: 2, colour: 'green' }, description: 'Green' },
            feature.variants[1],
          ],
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Feature>()).toMatchObject({ name: 'Top banner', description: 'Shown on every page' });
      expect(await productionPayload()).toEqual(before);
    });

    it('lets a production editor change the variants production serves', async () => {
      const feature = await banner();
      const res = await team.productionEditor.call(
        'PUT',
        '/api/v1/projects/web/features',
        settings(feature, {
          variants: [{ ...feature.variants[0], value: { colour: 'red' } }, feature.variants[1]],
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect((await productionPayload()).banner!.variants).toEqual([
        { key: 'on', name: 'On', value: { colour: 'red' } },
        { key: 'off', name: 'Off' },
      ]);
      const [item] = await auditTrail(team.admin.call);
      expect(item!.description).toContain('- variants changed: `on`');
    });

    it('lets a non-production editor change every setting of a project without a production environment', async () => {
      expect((await team.admin.call('DELETE', `/api/v1/environments/${production().id}`)).statusCode).toBe(
        204,
      );
      const feature = await banner();
      const res = await team.editor.call(
        'PUT',
        '/api/v1/projects/web/features',
        settings(feature, {
          variants: [
            { ...feature.variants[0], value: 'red', name: 'Red' },
            feature.variants[1],
            { key: 'blue', name: 'Blue' },
          ],
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Feature>().variants.map((v) => v.key)).toEqual(['on', 'off', 'blue']);
    });

    it('counts an environment tagged production as production', async () => {
      const development = project.environments.find((e) => e.key === 'development')!;
      const tagged = await team.admin.call('PUT', '/api/v1/environments/', {
        ...development,
        tags: ['production'],
      });
      expect(tagged.statusCode, tagged.body).toBe(200);
      expect((await team.admin.call('DELETE', `/api/v1/environments/${production().id}`)).statusCode).toBe(
        204,
      );
      const feature = await banner();
      const res = await team.editor.call(
        'PUT',
        '/api/v1/projects/web/features',
        settings(feature, { variants: [{ ...feature.variants[0], value: 'red' }, feature.variants[1]] }),
      );
      expect(res.statusCode).toBe(403);
    });
  });

  it('locks the key and the existing variants', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const rekey = await team.admin.call(
      'PUT',
      '/api/v1/projects/web/features',
      settings(feature, { key: 'other' }),
    );
    expect(rekey.statusCode).toBe(400);
    expect(rekey.json()).toMatchObject({
      errors: [{ field: 'key', message: 'The key of a feature cannot be changed.' }],
    });
    const dropOff = await team.admin.call(
      'PUT',
      '/api/v1/projects/web/features',
      settings(feature, { variants: [feature.variants[0], { key: 'blue', name: 'Blue' }] }),
    );
    expect(dropOff.statusCode).toBe(400);
    expect(dropOff.json()).toMatchObject({
      errors: [{ field: 'variants', message: 'Existing variants cannot be removed or re-keyed: "off".' }],
    });
  });

  it('needs update permission and the same organisation', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const body = settings(feature, { name: 'Hijacked' });
    expect((await team.readOnly.call('PUT', '/api/v1/projects/web/features', body)).statusCode).toBe(403);
    expect((await team.outsider.call('PUT', '/api/v1/projects/web/features', body)).statusCode).toBe(404);
    const after = await team.admin.call('GET', '/api/v1/projects/web/features/checkout');
    expect(after.json<Feature>().name).toBe('Checkout');
  });

  it('refuses a maintainer from another organisation', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const res = await team.admin.call(
      'PUT',
      '/api/v1/projects/web/features',
      settings(feature, { maintainerId: team.outsider.id }),
    );
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/v1/projects/{projectKey}/feature-key', () => {
  const check = (key: string, call: Caller = team.admin.call, projectKey = 'web') =>
    call('GET', `/api/v1/projects/${projectKey}/feature-key?key=${encodeURIComponent(key)}`);

  it('answers the normalised key, whether the project has it and the first free key made from it', async () => {
    await createFeature({ name: 'Card freeze', key: 'card-freeze' });
    await createFeature({ name: 'Card freeze', key: 'card-freeze1' });
    const taken = await check('Card freeze');
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ key: 'card-freeze', taken: true, freeKey: 'card-freeze2' });
    expect((await check('Bad Key With Spaces!!')).json()).toEqual({
      key: 'bad-key-with-spaces',
      taken: false,
      freeKey: 'bad-key-with-spaces',
    });
    // What it offers is what the create call then accepts, as is.
    expect((await createFeature({ name: 'Card freeze', key: 'card-freeze2' })).key).toBe('card-freeze2');
    expect((await check('card-freeze2')).json()).toMatchObject({ taken: true, freeKey: 'card-freeze3' });
  });

  it('does not count deleted features', async () => {
    const gone = await createFeature({ name: 'Old banner', key: 'old-banner' });
    await team.admin.call('DELETE', `/api/v1/project/web/features/${gone.id}/`);
    expect((await check('old-banner')).json()).toEqual({
      key: 'old-banner',
      taken: false,
      freeKey: 'old-banner',
    });
  });

  it('asks for a key', async () => {
    const res = await check('!!');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: [{ field: 'querystring.key', message: 'Key is required' }] });
  });

  it('needs create permission: editors may, read-only users may not', async () => {
    await createFeature({ name: 'Card freeze', key: 'card-freeze' });
    expect((await check('card-freeze', team.editor.call)).json()).toMatchObject({ taken: true });
    const readOnly = await check('card-freeze', team.readOnly.call);
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json()).toMatchObject({ title: DENIAL_MESSAGES.featureCreate, code: 'forbidden' });
    expect((await team.readOnly.call('GET', '/api/v1/projects/web/features')).statusCode).toBe(200);
  });

  it("answers only about the caller's organisation", async () => {
    await createFeature({ name: 'Card freeze', key: 'card-freeze' });
    // Another organisation does not see this one's project…
    const outsider = await check('card-freeze', team.outsider.call);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.body).not.toContain('card-freeze');
    // …and its own project with the same key knows nothing of this one's features.
    const own = await team.outsider.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
    expect(own.statusCode).toBe(201);
    expect((await check('card-freeze', team.outsider.call)).json()).toEqual({
      key: 'card-freeze',
      taken: false,
      freeKey: 'card-freeze',
    });
  });

  it('needs a session', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/projects/web/feature-key?key=a' });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /api/v1/project/{projectKey}/features/{featureId}/', () => {
  it('lets a production editor delete; the feature leaves every list', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const res = await team.productionEditor.call('DELETE', `/api/v1/project/web/features/${feature.id}/`);
    expect(res.statusCode).toBe(204);
    expect((await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).statusCode).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/features')).json<Feature[]>()).toEqual([]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Feature Checkout deleted');
  });

  it('tells a non-production editor and a read-only user why not', async () => {
    const feature = await createFeature({ name: 'Checkout', key: 'checkout' });
    const editor = await team.editor.call('DELETE', `/api/v1/project/web/features/${feature.id}/`);
    expect(editor.statusCode).toBe(403);
    expect(editor.json()).toMatchObject({
      title: 'Only a production editor can delete a feature.',
      code: 'production_rights_required',
    });
    const readOnly = await team.readOnly.call('DELETE', `/api/v1/project/web/features/${feature.id}/`);
    expect(readOnly.json()).toMatchObject({
      title: 'You do not have permission to delete this feature.',
      code: 'forbidden',
    });
    expect(
      (await team.outsider.call('DELETE', `/api/v1/project/web/features/${feature.id}/`)).statusCode,
    ).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).statusCode).toBe(200);
  });
});

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
