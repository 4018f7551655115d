import { describe, expect, it } from 'vitest';
import { DENIAL_MESSAGES, type Environment, type Feature } from '@vexil/core';
import { auditTrail } from '../../../test/api';
import { setUpFeatureRoutes, h, team, project, createFeature, settings } from './features.routes.fixture';

setUpFeatureRoutes();

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
