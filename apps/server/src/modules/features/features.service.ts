import { isDeepStrictEqual } from 'node:util';
import {
  FEATURE_KEY_PATTERN,
  can,
  defaultVariants,
  escapeMarkdown,
  featureDeleteDenial,
  featureServedChangeDenial,
  markdownCode,
  uniqueFeatureKey,
  type Feature,
  type FeatureInput,
  type FeatureListQuery,
  type HomeFeatureFilter,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { groupBy } from '../../lib/collections';
import type { ChangeEvents } from '../../lib/change-events';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { EnvironmentsService } from '../environments/environments.service';
import type { FeatureControlsService } from './feature-controls.service';
import * as repo from './features.repository';
import type { FeatureWithProject } from './features.repository';

/** How many features a search or a home list returns at most. */
export const FEATURE_SEARCH_LIMIT = 100;
export const FEATURE_CREATE_DENIED = 'You do not have permission to create features.';
export const FEATURE_UPDATE_DENIED = 'You do not have permission to change this feature.';

function displayName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

function list(values: readonly string[]): string {
  return values.length ? values.map(markdownCode).join(', ') : '(none)';
}

/** One feature an SDK declares (sdk-protocol §5). */
export type SdkRegistration = {
  key: string;
  failoverVariant?: string | null | undefined;
  variants?: readonly { key: string; name?: string | null | undefined; value?: unknown }[] | null | undefined;
};

/** The variants of a registered feature: as declared (name, or the value as a label), else On and Off. */
function sdkVariants(item: SdkRegistration): { key: string; name: string; description: string }[] {
  const declared = (item.variants ?? [])
    .filter((v) => typeof v.key === 'string' && FEATURE_KEY_PATTERN.test(v.key))
    .map((v) => ({
      key: v.key,
      name: (v.name ?? (typeof v.value === 'string' ? v.value : null) ?? v.key).slice(0, 100) || v.key,
      description: '',
    }));
  const unique = [...new Map(declared.map((v) => [v.key, v])).values()];
  return unique.length >= 2 ? unique : defaultVariants();
}

/**
 * A feature's variants as every environment's SDK payload carries them (see `buildControls` in
 * `src/sdk/sdk-store.ts`): key, name and value, in order. The value goes through JSON so that a
 * stored jsonb value and the same value sent back compare equal (key order, -0).
 */
function servedVariants(list: readonly { key: string; name: string; value?: unknown }[]) {
  return list.map((v) => ({ key: v.key, name: v.name, value: JSON.parse(JSON.stringify(v.value ?? null)) }));
}

export type FeaturesService = ReturnType<typeof createFeaturesService>;

export function createFeaturesService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  controls: FeatureControlsService;
  environments: EnvironmentsService;
  events: ChangeEvents;
  now?: () => Date;
}) {
  const { db, audit, billing, controls, environments, events } = deps;
  const now = deps.now ?? (() => new Date());

  /** Full features (variants, links, goals, maintainer, bookmark, controls by environment key). */
  async function toFeatures(
    executor: Executor,
    principal: Principal,
    rows: FeatureWithProject[],
    environmentIds?: string[],
  ): Promise<Feature[]> {
    const organisationId = principal.organisationId;
    const ids = rows.map((r) => r.feature.id);
    const maintainerIds = [
      ...new Set(rows.flatMap((r) => (r.feature.maintainerId ? [r.feature.maintainerId] : []))),
    ];
    const [variantRows, links, goalRows, maintainers, bookmarked] = await Promise.all([
      repo.variantsOf(executor, organisationId, ids),
      repo.issueLinksOf(executor, organisationId, ids),
      repo.goalKeysOf(executor, organisationId, ids),
      repo.usersById(executor, organisationId, maintainerIds),
      repo.bookmarkedIds(executor, principal.userId, ids),
    ]);
    const variantsByFeature = groupBy(variantRows, (v) => v.featureId);
    const controlViews = await controls.viewsOf(
      executor,
      organisationId,
      rows.map(({ feature }) => ({
        id: feature.id,
        key: feature.key,
        variantNames: Object.fromEntries(
          (variantsByFeature.get(feature.id) ?? []).map((v) => [v.key, v.name]),
        ),
      })),
      environmentIds,
    );
    const linksByFeature = groupBy(links, (l) => l.featureId);
    const goalsByFeature = groupBy(goalRows, (g) => g.featureId);
    const maintainerById = new Map(maintainers.map((m) => [m.id, m]));
    return rows.map(({ feature, project }) => {
      const maintainer = feature.maintainerId ? maintainerById.get(feature.maintainerId) : undefined;
      const issues = linksByFeature.get(feature.id) ?? [];
      return {
        id: feature.id,
        name: feature.name,
        key: feature.key,
        description: feature.description,
        permanent: feature.permanent,
        variants: (variantsByFeature.get(feature.id) ?? []).map((v) => ({
          key: v.key,
          name: v.name,
          description: v.description,
          ...(v.value === null ? {} : { value: v.value }),
        })),
        tags: feature.tags,
        goals: (goalsByFeature.get(feature.id) ?? []).map((g) => g.key),
        jiraIssues: issues.map((i) => ({ key: i.issueKey, title: i.title, url: i.url ?? '' })),
        jiraIssueKeys: issues.map((i) => i.issueKey),
        maintainer: maintainer
          ? { id: maintainer.id, name: displayName(maintainer), email: maintainer.email }
          : null,
        projectKey: project.key,
        project: { key: project.key, name: project.name },
        bookmarked: bookmarked.has(feature.id),
        archived: feature.archived,
        controls: controlViews.get(feature.id) ?? {},
        createdDate: feature.createdAt.toISOString(),
        lastModifiedDate: feature.updatedAt.toISOString(),
      };
    });
  }

  async function one(executor: Executor, principal: Principal, row: FeatureWithProject): Promise<Feature> {
    const [feature] = await toFeatures(executor, principal, [row]);
    return feature!;
  }

  async function requireProject(executor: Executor, organisationId: string, projectKey: string) {
    const project = await repo.findLiveProject(executor, organisationId, projectKey);
    if (!project) throw new NotFoundError('project', projectKey);
    return project;
  }

  async function assertMaintainer(executor: Executor, organisationId: string, maintainerId: string | null) {
    if (maintainerId === null) return;
    const [user] = await repo.usersById(executor, organisationId, [maintainerId]);
    if (!user)
      throw new ValidationError('maintainerId', 'The maintainer must be a member of this organisation.');
  }

  function publishProject(organisationId: string, environmentIds: string[]) {
    for (const environmentId of environmentIds)
      events.publish({ type: 'environment.changed', organisationId, environmentId });
  }

  return {
    toFeatures,

    /** GET /api/v1/features?filter=: features across the organisation matching the text. */
    async search(principal: Principal, text: string | undefined): Promise<Feature[]> {
      const rows = await repo.search(
        db,
        principal.organisationId,
        text?.trim() || undefined,
        FEATURE_SEARCH_LIMIT,
      );
      return toFeatures(db, principal, rows);
    },

    /** The home page lists (spec §2): recent, bookmarked, maintaining. */
    async home(principal: Principal, filter: HomeFeatureFilter): Promise<Feature[]> {
      const rows = await repo.homeList(
        db,
        principal.organisationId,
        principal.userId,
        filter,
        FEATURE_SEARCH_LIMIT,
      );
      return toFeatures(db, principal, rows);
    },

    /** Features of one project matching typed text (link page, pickers). */
    async searchInProject(
      principal: Principal,
      projectKey: string,
      text: string | undefined,
    ): Promise<Feature[]> {
      const project = await requireProject(db, principal.organisationId, projectKey);
      const rows = await repo.searchInProject(
        db,
        principal.organisationId,
        project.id,
        text?.trim() || undefined,
        50,
      );
      return toFeatures(db, principal, rows);
    },

    /** One page of an environment's feature list, each feature with that environment's control only. */
    async page(principal: Principal, projectKey: string, environmentKey: string, query: FeatureListQuery) {
      const project = await requireProject(db, principal.organisationId, projectKey);
      const environment = await environments.get(principal, projectKey, environmentKey);
      const { rows, total } = await repo.page(
        db,
        principal.organisationId,
        project.id,
        query.query?.trim() || undefined,
        query.page * query.pageSize,
        query.pageSize,
      );
      return {
        content: await toFeatures(db, principal, rows, [environment.id]),
        last: (query.page + 1) * query.pageSize >= total,
        page: query.page,
        pageSize: query.pageSize,
        totalElements: total,
      };
    },

    /** A feature by project and key, with its control in every environment. */
    async get(principal: Principal, projectKey: string, featureKey: string): Promise<Feature> {
      const row = await repo.findByKey(db, principal.organisationId, projectKey, featureKey);
      if (!row) throw new NotFoundError('feature', `${projectKey}/${featureKey}`);
      return one(db, principal, row);
    },

    /** POST /api/v1/projects/{projectKey}/features: a new key is made unique within the project. */
    async create(principal: Principal, projectKey: string, input: FeatureInput): Promise<Feature> {
      if (!can(principal, 'create', { type: 'feature' })) throw new ForbiddenError(FEATURE_CREATE_DENIED);
      if (input.id !== undefined)
        throw new ValidationError('id', 'A new feature has no id: use PUT to update.');
      const organisationId = principal.organisationId;
      for (let attempt = 0; ; attempt++) {
        try {
          const { feature, environmentIds } = await db.transaction(async (tx) => {
            await lockOrganisation(tx, organisationId);
            await billing.assertActive(organisationId, tx);
            const project = await requireProject(tx, organisationId, projectKey);
            await assertMaintainer(tx, organisationId, input.maintainerId);
            await billing.assertWithinLimit(tx, organisationId, 'maxFeatures', () =>
              repo.countLive(tx, organisationId),
            );
            const key = uniqueFeatureKey(input.key, await repo.liveKeys(tx, project.id));
            const at = now();
            const row = await repo.insert(tx, {
              organisationId,
              projectId: project.id,
              name: input.name,
              key,
              description: input.description,
              permanent: input.permanent,
              tags: input.tags,
              maintainerId: input.maintainerId ?? principal.userId,
              createdById: principal.userId,
              createdAt: at,
              updatedAt: at,
            });
            await repo.insertVariants(
              tx,
              input.variants.map((variant, position) => ({
                organisationId,
                featureId: row.id,
                key: variant.key,
                name: variant.name,
                description: variant.description,
                value: variant.value ?? null,
                position,
              })),
            );
            await repo.addIssueLinks(tx, organisationId, row.id, input.jiraIssueKeys);
            await repo.setGoals(tx, organisationId, project.id, row.id, input.goals);
            const environmentIds = await controls.createForFeature(tx, {
              organisationId,
              projectId: project.id,
              featureId: row.id,
              variantKeys: input.variants.map((v) => v.key),
            });
            await audit.record(tx, principal, {
              action: 'create',
              resourceType: 'feature',
              resourceId: row.id,
              projectKey: project.key,
              featureKey: row.key,
              title: `Feature ${row.name} created in ${project.name}`,
              description: `${escapeMarkdown(principal.email)} created the feature **${escapeMarkdown(row.name)}** (${markdownCode(row.key)}) with the variants ${list(input.variants.map((v) => v.key))}. It is off in every environment.`,
            });
            return {
              feature: await one(tx, principal, { feature: row, project }),
              environmentIds,
            };
          });
          publishProject(organisationId, environmentIds);
          return feature;
        } catch (error) {
          // Another request took the same key between our read and insert: pick the next free one.
          if (isUniqueViolation(error, 'features_project_key_unique') && attempt < 3) continue;
          throw error;
        }
      }
    },

    /** PUT /api/v1/projects/{projectKey}/features: settings; the key and existing variant keys stay. */
    async update(principal: Principal, projectKey: string, input: FeatureInput): Promise<Feature> {
      if (!can(principal, 'update', { type: 'feature' })) throw new ForbiddenError(FEATURE_UPDATE_DENIED);
      if (input.id === undefined) throw new ValidationError('id', 'An id is required to update a feature.');
      const id = input.id;
      const organisationId = principal.organisationId;
      const { feature, environmentIds } = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, id);
        if (!found || found.project.key !== projectKey) throw new NotFoundError('feature', id);
        await billing.assertActive(organisationId, tx);
        const { feature: before, project } = found;
        if (input.key !== before.key)
          throw new ValidationError('key', 'The key of a feature cannot be changed.');
        await assertMaintainer(tx, organisationId, input.maintainerId);
        const existing = await repo.variantsOf(tx, organisationId, [id]);
        const incoming = new Map(input.variants.map((v, position) => [v.key, { ...v, position }]));
        const removed = existing.filter((v) => !incoming.has(v.key)).map((v) => v.key);
        if (removed.length > 0) {
          throw new ValidationError(
            'variants',
            `Existing variants cannot be removed or re-keyed: ${removed.map((k) => `"${k}"`).join(', ')}.`,
          );
        }
        // Variants go into every environment's SDK payload: changing them changes what production
        // serves, which needs production rights when the project has a production environment.
        const servedBefore = servedVariants(existing);
        const servedAfter = servedVariants(input.variants);
        if (!isDeepStrictEqual(servedBefore, servedAfter)) {
          const served = await environments.listByProjects(tx, principal, [project]);
          const denial = featureServedChangeDenial(principal, served.get(project.id) ?? []);
          if (denial) throw new ForbiddenError(denial);
        }
        const servedNext = new Map(servedAfter.map((v) => [v.key, v]));
        const edited = servedBefore
          .filter((v) => !isDeepStrictEqual(v, servedNext.get(v.key)))
          .map((v) => v.key);
        const at = now();
        for (const variant of existing) {
          const next = incoming.get(variant.key)!;
          await repo.updateVariant(tx, id, variant.key, {
            name: next.name,
            description: next.description,
            value: next.value ?? null,
            position: next.position,
            updatedAt: at,
          });
        }
        const added = input.variants.filter((v) => !existing.some((e) => e.key === v.key));
        await repo.insertVariants(
          tx,
          added.map((variant) => ({
            organisationId,
            featureId: id,
            key: variant.key,
            name: variant.name,
            description: variant.description,
            value: variant.value ?? null,
            position: incoming.get(variant.key)!.position,
          })),
        );
        const links = await repo.issueLinksOf(tx, organisationId, [id]);
        const linkedKeys = links.map((l) => l.issueKey);
        await repo.removeIssueLinks(
          tx,
          id,
          linkedKeys.filter((k) => !input.jiraIssueKeys.includes(k)),
        );
        await repo.addIssueLinks(
          tx,
          organisationId,
          id,
          input.jiraIssueKeys.filter((k) => !linkedKeys.includes(k)),
        );
        await repo.setGoals(tx, organisationId, project.id, id, input.goals);
        const after = await repo.update(tx, organisationId, id, {
          name: input.name,
          description: input.description,
          permanent: input.permanent,
          tags: input.tags,
          maintainerId: input.maintainerId,
          updatedAt: at,
        });
        const changes = [
          before.name !== after.name
            ? `- name: ${markdownCode(before.name)} → ${markdownCode(after.name)}`
            : null,
          before.description !== after.description ? '- description changed' : null,
          before.permanent !== after.permanent
            ? `- permanent: ${markdownCode(String(after.permanent))}`
            : null,
          JSON.stringify(before.tags) !== JSON.stringify(after.tags)
            ? `- tags: ${list(before.tags)} → ${list(after.tags)}`
            : null,
          before.maintainerId !== after.maintainerId ? '- maintainer changed' : null,
          added.length ? `- variants added: ${list(added.map((v) => v.key))}` : null,
          edited.length ? `- variants changed: ${list(edited)}` : null,
          JSON.stringify(linkedKeys) !== JSON.stringify(input.jiraIssueKeys)
            ? `- issues: ${list(linkedKeys)} → ${list(input.jiraIssueKeys)}`
            : null,
        ].filter((line): line is string => line !== null);
        await audit.record(tx, principal, {
          action: 'update',
          resourceType: 'feature',
          resourceId: id,
          projectKey: project.key,
          featureKey: after.key,
          title: `Feature ${after.name} updated`,
          description: `${escapeMarkdown(principal.email)} updated the settings of **${escapeMarkdown(after.name)}** (${markdownCode(after.key)})${changes.length ? `:\n\n${changes.join('\n')}` : '.'}`,
        });
        const environmentIds = await controls.environmentIdsOf(tx, organisationId, project.id);
        return { feature: await one(tx, principal, { feature: after, project }), environmentIds };
      });
      publishProject(organisationId, environmentIds);
      return feature;
    },

    /** DELETE /api/v1/project/{projectKey}/features/{featureId}/: archives it (production editors only). */
    async remove(principal: Principal, projectKey: string, featureId: string): Promise<void> {
      const organisationId = principal.organisationId;
      const environmentIds = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, featureId);
        if (!found || found.project.key !== projectKey) throw new NotFoundError('feature', featureId);
        const denial = featureDeleteDenial(principal);
        if (denial) throw new ForbiddenError(denial);
        await billing.assertActive(organisationId, tx);
        const { feature, project } = found;
        const at = now();
        await repo.update(tx, organisationId, featureId, { archived: true, archivedAt: at, updatedAt: at });
        await audit.record(tx, principal, {
          action: 'archive',
          resourceType: 'feature',
          resourceId: featureId,
          projectKey: project.key,
          featureKey: feature.key,
          title: `Feature ${feature.name} deleted`,
          description: `${escapeMarkdown(principal.email)} deleted the feature **${escapeMarkdown(feature.name)}** (${markdownCode(feature.key)}) from **${escapeMarkdown(project.name)}**. SDKs no longer receive it.`,
        });
        return controls.environmentIdsOf(tx, organisationId, project.id);
      });
      publishProject(organisationId, environmentIds);
    },

    /** PUT /api/v1/features/link: links an issue-tracker key to a feature (create permission, spec §2). */
    async link(principal: Principal, featureId: string, issueKey: string): Promise<Feature> {
      if (!can(principal, 'create', { type: 'feature' })) throw new ForbiddenError(FEATURE_UPDATE_DENIED);
      const organisationId = principal.organisationId;
      return db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, featureId);
        if (!found) throw new NotFoundError('feature', featureId);
        const links = await repo.issueLinksOf(tx, organisationId, [featureId]);
        if (!links.some((l) => l.issueKey === issueKey)) {
          await repo.addIssueLinks(tx, organisationId, featureId, [issueKey]);
          await repo.update(tx, organisationId, featureId, { updatedAt: now() });
          await audit.record(tx, principal, {
            action: 'update',
            resourceType: 'feature',
            resourceId: featureId,
            projectKey: found.project.key,
            featureKey: found.feature.key,
            title: `Feature ${found.feature.name} linked to ${issueKey}`,
            description: `${escapeMarkdown(principal.email)} linked the issue ${markdownCode(issueKey)} to **${escapeMarkdown(found.feature.name)}** (${markdownCode(found.feature.key)}).`,
          });
        }
        return one(tx, principal, found);
      });
    },

    /** PUT /api/v1/features/{featureId}/bookmark/{bookmarked}: per user. */
    async bookmark(principal: Principal, featureId: string, bookmarked: boolean) {
      const found = await repo.findById(db, principal.organisationId, featureId);
      if (!found) throw new NotFoundError('feature', featureId);
      await repo.setBookmark(db, principal.organisationId, principal.userId, featureId, bookmarked);
      return { featureId, bookmarked };
    },

    /**
     * PUT /api/sdk/v1/register: marks the declared features that exist available in the key's
     * environment and, where the environment lets SDKs create features (`sdkCanCreateFeatures`, off in
     * production by default), creates those the project lacks (with their variants, default on/off).
     * The SDK, named by its key's environment, is the audit log's actor. Features past the plan's
     * limit, or in an environment that does not let SDKs create features, are not created: they come
     * back as `refused`, and the SDK is told 200 either way (see the route).
     */
    async registerFromSdk(
      environment: { organisationId: string; projectId: string; environmentId: string },
      items: readonly SdkRegistration[],
    ): Promise<{ created: string[]; registered: string[]; refused: string[] }> {
      const { organisationId, projectId, environmentId } = environment;
      const actor = { organisationId, userId: null };
      const result = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const target = await repo.registrationEnvironment(tx, organisationId, environmentId);
        if (!target) throw new NotFoundError('environment', environmentId);
        const sdk = `The server SDK key of the environment **${escapeMarkdown(target.name)}** (${markdownCode(target.key)})`;
        const existing = new Map(
          (
            await repo.liveByKeys(
              tx,
              projectId,
              items.map((item) => item.key),
            )
          ).map((f) => [f.key, f.id]),
        );
        const at = now();
        const created: string[] = [];
        const registered: string[] = [];
        const refused: string[] = [];
        let environmentIds: string[] = [environmentId];
        for (const item of items) {
          let featureId = existing.get(item.key);
          if (!featureId) {
            if (!target.sdkCanCreateFeatures) {
              refused.push(item.key);
              continue;
            }
            const limits = await billing.limitsFor(tx, organisationId);
            const max = limits?.maxFeatures;
            if (max !== null && max !== undefined && (await repo.countLive(tx, organisationId)) >= max) {
              refused.push(item.key);
              continue;
            }
            const variants = sdkVariants(item);
            const row = await repo.insert(tx, {
              organisationId,
              projectId,
              name: item.key,
              key: item.key,
              description: 'Registered by an SDK.',
              createdAt: at,
              updatedAt: at,
            });
            await repo.insertVariants(
              tx,
              variants.map((variant, position) => ({
                organisationId,
                featureId: row.id,
                ...variant,
                position,
              })),
            );
            environmentIds = await controls.createForFeature(tx, {
              organisationId,
              projectId,
              featureId: row.id,
              variantKeys: variants.map((v) => v.key),
            });
            await audit.record(tx, actor, {
              action: 'create',
              resourceType: 'feature',
              resourceId: row.id,
              projectKey: target.projectKey,
              environmentKey: target.key,
              featureKey: row.key,
              title: `Feature ${row.key} registered by the SDK of ${target.name}`,
              description: `${sdk} registered the feature ${markdownCode(row.key)} with the variants ${list(variants.map((v) => v.key))}. It is off in every environment.`,
              data: { actor: { type: 'sdk', environmentId, environmentKey: target.key } },
            });
            featureId = row.id;
            existing.set(item.key, featureId);
            created.push(item.key);
          }
          await repo.markAvailable(tx, featureId, environmentId, at);
          registered.push(item.key);
        }
        return { created, registered, refused, environmentIds };
      });
      publishProject(organisationId, result.created.length ? result.environmentIds : [environmentId]);
      return { created: result.created, registered: result.registered, refused: result.refused };
    },

    /** GET /api/v1/projects/{projectKey}/tags?query= */
    async tags(principal: Principal, projectKey: string, text: string | undefined): Promise<string[]> {
      const project = await requireProject(db, principal.organisationId, projectKey);
      return repo.tagsOf(db, principal.organisationId, project.id, text?.trim() || undefined);
    },

    /** GET /api/v1/members?query=: who can maintain a feature. */
    async members(principal: Principal, text: string | undefined) {
      const rows = await repo.members(db, principal.organisationId, text?.trim() || undefined, 50);
      return rows.map((user) => ({ id: user.id, name: displayName(user), email: user.email }));
    },
  };
}
