import { describe, expect, it } from 'vitest';
import { DENIAL_MESSAGES, type Feature } from '@vexil/core';
import { subscriptions } from '../../db/schema/index';
import { auditTrail, subscribe, type Caller } from '../../../test/api';
import { setUpFeatureRoutes, h, team, createFeature } from './features.routes.fixture';

setUpFeatureRoutes();

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
