import { isDeepStrictEqual } from 'node:util';
import { servedChangeDenial, uniqueFeatureKey, type Feature, type FeatureInput } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { ForbiddenError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { actorOf, type ChangeEvents, type LiveChange } from '../../lib/change-events';
import type { ChangeOutbox } from '../../lib/change-outbox';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import { authorOf, originOf } from '../versions/versions.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ControlsService } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import type { TeamService } from '../team/team.service';
import { featureAudit } from './feature-audit';
import type { FeatureReadModel } from './feature-read-model';
import * as linkRepo from './feature-links.repository';
import { issuesLinked, type GoalIds, type IssueTracker, type IssuesLinked } from './ports';
import * as repo from './features.repository';
import type { FeatureKeyCheck } from './features.types';

/**
 * A feature's variants as every environment's SDK payload carries them (see `buildControls` in
 * `src/sdk/sdk-store.ts`): key, name and value, in order. The value goes through JSON so that a
 * stored jsonb value and the same value sent back compare equal (key order, -0).
 */
function servedVariants(list: readonly { key: string; name: string; value?: unknown }[]) {
  return list.map((v) => ({ key: v.key, name: v.name, value: JSON.parse(JSON.stringify(v.value ?? null)) }));
}

export type FeaturesService = ReturnType<typeof createFeaturesService>;

/**
 * A new feature's key is refused when the project has it: the dashboard shows the key it will create,
 * made unique as the user types (docs/product.md §5 "Feature"), so a silent suffix here would create a
 * key nobody saw.
 */
function keyTakenError(key: string) {
  return new ValidationError('key', `A feature with the key "${key}" already exists in this project.`);
}

/**
 * Feature writes: create, settings, delete (archive), issue links and bookmarks. Each write is one
 * transaction with its audit entry, then a change event for every environment whose SDK payload it
 * alters. Reads are in feature-read-model.ts; SDK registration in sdk-registration.ts.
 */
export function createFeaturesService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  controls: ControlsService;
  scope: Scope;
  team: TeamService;
  events: ChangeEvents;
  /** Writes, in a change's transaction, what it triggers (docs/adr/0023-durable-queue.md). */
  outbox: ChangeOutbox;
  read: FeatureReadModel;
  /** Comments on the issues a feature is created from or linked to (integrations module). */
  issues?: Pick<IssueTracker, 'issuesLinked'>;
  /** A project's goals (experiments module). */
  goals: GoalIds;
  now?: () => Date;
}) {
  const { db, audit, billing, controls, scope, team, events, read, goals } = deps;
  const now = deps.now ?? (() => new Date());

  function publishProject(
    principal: Principal,
    environmentIds: string[],
    change: { kind: LiveChange['kind']; projectKey: string; featureKey: string; featureId: string },
  ) {
    const { organisationId } = principal;
    const { featureId, ...live } = change;
    // Only this feature's entries change in each payload: the SDK layer patches them.
    for (const environmentId of environmentIds)
      events.publish({ type: 'environment.changed', organisationId, environmentId, featureIds: [featureId] });
    events.publish({
      type: 'dashboard',
      organisationId,
      change: { ...live, actor: actorOf(principal), at: now().toISOString() },
    });
  }

  /** Tells the issue tracker, after the commit, which issues now link to the feature. */
  function announceLinks(principal: Principal, feature: Feature, how: IssuesLinked['how'], keys: string[]) {
    if (keys.length > 0) deps.issues?.issuesLinked(issuesLinked(principal, feature, how, keys));
  }

  /** Makes the feature's goals exactly `keys`, creating goals the project does not have yet. */
  async function setGoals(
    tx: Executor,
    organisationId: string,
    projectId: string,
    featureId: string,
    keys: string[],
  ) {
    await linkRepo.setGoals(
      tx,
      organisationId,
      featureId,
      await goals.ensureGoals(tx, organisationId, projectId, keys),
    );
  }

  async function environmentIdsOf(tx: Executor, organisationId: string, projectId: string) {
    return (await scope.environmentsOf(tx, organisationId, projectId)).map((environment) => environment.id);
  }

  return {
    /**
     * GET /api/v1/projects/{projectKey}/feature-key?key=: whether a new feature could have this key
     * (normalised), and the first free key made from it, for the key field of the create forms.
     */
    async checkKey(principal: Principal, projectKey: string, key: string): Promise<FeatureKeyCheck> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      assertAllowed(principal, 'create', { type: 'feature', projectId: project.id });
      const existing = await repo.liveKeys(db, project.id);
      return { key, taken: existing.includes(key), freeKey: uniqueFeatureKey(key, existing) };
    },

    /** POST /api/v1/projects/{projectKey}/features: a key the project already has is refused. */
    async create(principal: Principal, projectKey: string, input: FeatureInput): Promise<Feature> {
      const organisationId = principal.organisationId;
      // The project first: a custom role may allow creating features in some projects only.
      const { id: projectId } = await scope.project(db, organisationId, projectKey);
      assertAllowed(principal, 'create', { type: 'feature', projectId });
      if (input.id !== undefined)
        throw new ValidationError('id', 'A new feature has no id: use PUT to update.');
      try {
        const { feature, environmentIds } = await db.transaction(async (tx) => {
          await lockOrganisation(tx, organisationId);
          await billing.assertActive(tx, organisationId);
          const project = await scope.project(tx, organisationId, projectKey);
          await team.assertMember(tx, organisationId, input.maintainerId, 'maintainerId');
          await billing.assertWithinLimit(tx, organisationId, 'maxFeatures');
          if (await repo.hasLiveKey(tx, project.id, input.key)) throw keyTakenError(input.key);
          const at = now();
          const row = await repo.insert(tx, {
            organisationId,
            projectId: project.id,
            name: input.name,
            key: input.key,
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
          await linkRepo.addIssueLinks(tx, organisationId, row.id, input.jiraIssueKeys);
          await setGoals(tx, organisationId, project.id, row.id, input.goals);
          const environmentIds = await controls.createForFeature(tx, {
            organisationId,
            projectId: project.id,
            featureId: row.id,
            variantKeys: input.variants.map((v) => v.key),
            author: authorOf(principal),
            origin: originOf(principal),
          });
          await audit.record(
            tx,
            principal,
            featureAudit({
              kind: 'feature.created',
              by: principal.email,
              feature: row,
              project,
              variantKeys: input.variants.map((v) => v.key),
            }),
          );
          await deps.outbox(tx, organisationId, {
            kind: 'feature.created',
            projectKey,
            featureKey: row.key,
            actor: actorOf(principal),
            at: at.toISOString(),
          });
          return {
            feature: await read.one(tx, principal, { feature: row, project }),
            environmentIds,
          };
        });
        publishProject(principal, environmentIds, {
          kind: 'feature.created',
          projectKey,
          featureKey: feature.key,
          featureId: feature.id,
        });
        announceLinks(principal, feature, 'created', input.jiraIssueKeys);
        return feature;
      } catch (error) {
        // Another request took the same key between our read and insert.
        if (isUniqueViolation(error, 'features_project_key_unique')) throw keyTakenError(input.key);
        throw error;
      }
    },

    /** PUT /api/v1/projects/{projectKey}/features: settings; the key and existing variant keys stay. */
    async update(principal: Principal, projectKey: string, input: FeatureInput): Promise<Feature> {
      if (input.id === undefined) throw new ValidationError('id', 'An id is required to update a feature.');
      const id = input.id;
      const organisationId = principal.organisationId;
      const { feature, environmentIds, linkedIssues } = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, id, { forUpdate: true });
        if (!found || found.project.key !== projectKey) throw new NotFoundError('feature', id);
        assertAllowed(principal, 'update', { type: 'feature', projectId: found.project.id });
        await billing.assertActive(tx, organisationId);
        const { feature: before, project } = found;
        if (changedSince(before.updatedAt, input.lastModifiedDate))
          throw await audit.staleWrite(tx, principal, { type: 'feature', id }, 'feature');
        if (input.key !== before.key)
          throw new ValidationError('key', 'The key of a feature cannot be changed.');
        await team.assertMember(tx, organisationId, input.maintainerId, 'maintainerId');
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
          const served = await scope.environmentsOf(tx, organisationId, project.id);
          const denial = servedChangeDenial(
            principal,
            served.map(({ production, tags }) => ({ production, tags, projectId: project.id })),
          );
          if (denial) throw ForbiddenError.of(denial);
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
        const links = await linkRepo.issueLinksOf(tx, organisationId, [id]);
        const linkedKeys = links.map((l) => l.key);
        await linkRepo.removeIssueLinks(
          tx,
          id,
          linkedKeys.filter((k) => !input.jiraIssueKeys.includes(k)),
        );
        await linkRepo.addIssueLinks(
          tx,
          organisationId,
          id,
          input.jiraIssueKeys.filter((k) => !linkedKeys.includes(k)),
        );
        await setGoals(tx, organisationId, project.id, id, input.goals);
        const after = await repo.update(tx, organisationId, id, {
          name: input.name,
          description: input.description,
          permanent: input.permanent,
          tags: input.tags,
          maintainerId: input.maintainerId,
          updatedAt: at,
        });
        await audit.record(
          tx,
          principal,
          featureAudit({
            kind: 'feature.updated',
            by: principal.email,
            feature: after,
            project,
            settings: { before, after },
            variantsAdded: added.map((v) => v.key),
            variantsEdited: edited,
            issues: { before: linkedKeys, after: input.jiraIssueKeys },
          }),
        );
        const environmentIds = await environmentIdsOf(tx, organisationId, project.id);
        return {
          feature: await read.one(tx, principal, { feature: after, project }),
          environmentIds,
          linkedIssues: input.jiraIssueKeys.filter((k) => !linkedKeys.includes(k)),
        };
      });
      publishProject(principal, environmentIds, {
        kind: 'feature.settings',
        projectKey,
        featureKey: feature.key,
        featureId: id,
      });
      announceLinks(principal, feature, 'linked', linkedIssues);
      return feature;
    },

    /** DELETE /api/v1/project/{projectKey}/features/{featureId}/: archives it (production editors only). */
    async remove(principal: Principal, projectKey: string, featureId: string): Promise<void> {
      const organisationId = principal.organisationId;
      const archived = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, featureId);
        if (!found || found.project.key !== projectKey) throw new NotFoundError('feature', featureId);
        assertAllowed(principal, 'delete', { type: 'feature', projectId: found.project.id });
        await billing.assertActive(tx, organisationId);
        const { feature, project } = found;
        const at = now();
        await repo.update(tx, organisationId, featureId, { archived: true, archivedAt: at, updatedAt: at });
        await audit.record(
          tx,
          principal,
          featureAudit({ kind: 'feature.deleted', by: principal.email, feature, project }),
        );
        await deps.outbox(tx, organisationId, {
          kind: 'feature.deleted',
          projectKey,
          featureKey: feature.key,
          actor: actorOf(principal),
          at: at.toISOString(),
        });
        return { environmentIds: await environmentIdsOf(tx, organisationId, project.id), key: feature.key };
      });
      publishProject(principal, archived.environmentIds, {
        kind: 'feature.deleted',
        projectKey,
        featureKey: archived.key,
        featureId,
      });
    },

    /** PUT /api/v1/features/link: links an issue-tracker key to a feature (create permission, docs/product.md §2). */
    async link(principal: Principal, featureId: string, issueKey: string): Promise<Feature> {
      const organisationId = principal.organisationId;
      const { feature, linked } = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, featureId);
        if (!found) throw new NotFoundError('feature', featureId);
        assertAllowed(principal, 'create', { type: 'feature', projectId: found.project.id });
        await billing.assertActive(tx, organisationId);
        const links = await linkRepo.issueLinksOf(tx, organisationId, [featureId]);
        const linked = !links.some((l) => l.key === issueKey);
        if (linked) {
          await linkRepo.addIssueLinks(tx, organisationId, featureId, [issueKey]);
          await repo.update(tx, organisationId, featureId, { updatedAt: now() });
          await audit.record(
            tx,
            principal,
            featureAudit({
              kind: 'feature.linked',
              by: principal.email,
              feature: found.feature,
              project: found.project,
              issueKey,
            }),
          );
        }
        return { feature: await read.one(tx, principal, found), linked };
      });
      if (linked) announceLinks(principal, feature, 'linked', [issueKey]);
      return feature;
    },

    /** A project being removed archives its live features with it, in its transaction; how many. */
    archiveAllOf(tx: Executor, organisationId: string, projectId: string, at: Date): Promise<number> {
      return repo.archiveAllOfProject(tx, organisationId, projectId, at);
    },

    /** PUT /api/v1/features/{featureId}/bookmark/{bookmarked}: per user. */
    async bookmark(principal: Principal, featureId: string, bookmarked: boolean) {
      const found = await repo.findById(db, principal.organisationId, featureId);
      if (!found) throw new NotFoundError('feature', featureId);
      await linkRepo.setBookmark(db, principal.organisationId, principal.userId, featureId, bookmarked);
      return { featureId, bookmarked };
    },
  };
}
