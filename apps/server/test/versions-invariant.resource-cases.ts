import { type Environment, type Segment, type VersionPage } from '@vexil/core';
import type { Case, WalkContext } from './versions-invariant.cases';

/*
 * Representative calls of the segments' and environments' history writes for the versions invariant
 * (versions-invariant.test.ts), beside versions-invariant.cases.ts: a restore of the segment `vips`
 * and of the environment `development` to the version before their newest, and saves that send a
 * segment and an environment back as they are (no version).
 */
export function resourceCases(ctx: WalkContext): Record<string, Case[]> {
  const admin = () => ctx.team.admin.call;

  async function segment(): Promise<Segment> {
    const res = await admin()('GET', '/api/v2/segments/web/development');
    return res.json<Segment[]>().find((s) => s.key === 'vips')!;
  }

  async function environment(): Promise<Environment> {
    return (await admin()('GET', '/api/v1/environments/web/development')).json<Environment>();
  }

  async function newest(url: string): Promise<number> {
    return (await admin()('GET', url)).json<VersionPage>().content[0]!.number;
  }

  const segmentVersions = '/api/v2/segments/web/development/vips/versions';
  const environmentVersions = '/api/v1/environments/web/development/versions';

  const segmentBody = async (changes: Record<string, unknown> = {}) => {
    const { id, projectKey, environmentKey, key, name, description } = await segment();
    return { id, projectKey, environmentKey, key, name, description, ...changes };
  };

  return {
    // The segment sent back as it is: no version.
    'PUT /api/v2/segments': [
      { ok: true, call: async () => ({ url: '/api/v2/segments', body: await segmentBody() }) },
    ],
    // The environment sent back as it is: no version.
    'PUT /api/v1/environments': [
      {
        ok: true,
        call: async () => {
          const { id, name, key } = await environment();
          return { url: '/api/v1/environments', body: { id, projectKey: 'web', name, key } };
        },
      },
    ],
    'POST /api/v2/segments/:projectKey/:environmentKey/:segmentKey/versions/:number/restore': [
      {
        ok: true,
        prepare: async () =>
          admin()('PUT', '/api/v2/segments', await segmentBody({ description: 'To undo' })),
        call: async () => {
          const current = await newest(segmentVersions);
          return {
            url: `${segmentVersions}/${current - 1}/restore`,
            body: { currentVersion: current, comment: 'Undo' },
          };
        },
      },
    ],
    'POST /api/v1/environments/:projectKey/:environmentKey/versions/:number/restore': [
      {
        ok: true,
        prepare: async () => {
          const { id, name, key } = await environment();
          return admin()('PUT', '/api/v1/environments', {
            id,
            projectKey: 'web',
            name,
            key,
            color: '#123456',
            tags: ['walked'],
          });
        },
        call: async () => {
          const current = await newest(environmentVersions);
          return { url: `${environmentVersions}/${current - 1}/restore`, body: { currentVersion: current } };
        },
      },
    ],
  };
}
