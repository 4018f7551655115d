import { uniqueFeatureKey, type Feature, type FeatureInput, type FeatureSettingsSnapshot } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { actorOf, type ChangeEvents } from '../../lib/change-events';
import type { ChangeOutbox } from '../../lib/change-outbox';
import type { AuditService } from '../audit/audit.service';
import { authorOf, originOf, type VersionsService } from '../versions/versions.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ControlsService } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import type { TeamService } from '../team/team.service';
import { featureAudit } from './feature-audit';
import { createFeatureAnnouncer } from './feature-events';
import { createFeatureHistory } from './feature-history';
import type { FeatureReadModel } from './feature-read-model';
import {
  createFeatureSettingsChange,
  type FeatureSettings,
  type ProjectProtection,
} from './feature-settings-change';
import { recordFirstSettingsVersions, recordSettingsVersion, settingsSnapshot } from './feature-versions';
import * as linkRepo from './feature-links.repository';
import type { GoalIds, IssueTracker } from './ports';
import * as repo from './features.repository';
import type { FeatureKeyCheck, FeatureRecord } from './features.types';

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
 * transaction with its audit entry and, when it changes the settings, their next version
 * (docs/adr/0022-versions.md), then a change event for every environment whose SDK payload it alters.
 * Reads are in feature-read-model.ts; SDK registration in sdk-registration.ts; the settings' one write
 * path in feature-settings-change.ts and their history in feature-history.ts.
 */
export function createFeaturesService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  controls: ControlsService;
  scope: Scope;
  team: TeamService;
  versions: VersionsService;
  events: ChangeEvents;
  /** Writes, in a change's transaction, what it triggers (docs/adr/0023-durable-queue.md). */
  outbox: ChangeOutbox;
  read: FeatureReadModel;
  /** Comments on the issues a feature is created from or linked to (integrations module). */
  issues?: Pick<IssueTracker, 'issuesLinked'>;
  /** A project's goals (experiments module). */
  goals: GoalIds;
  /** Whether the project asks for change requests (docs/adr/0024-change-requests.md). */
  protection?: ProjectProtection;
  now?: () => Date;
}) {
  const { db, audit, billing, controls, scope, team, versions, read, goals } = deps;
  const now = deps.now ?? (() => new Date());
  const announce = createFeatureAnnouncer({ events: deps.events, issues: deps.issues, now });
  const { changedWithin, publishProject, linksWithin } = announce;
  const settingsProtection: ProjectProtection = deps.protection ?? (async () => ({ bypass: false }));
  const change = createFeatureSettingsChange({
    db,
    audit,
    billing,
    scope,
    team,
    versions,
    read,
    goals,
    announce,
    protection: settingsProtection,
    now,
  });
  const history = createFeatureHistory({ db, versions, change });

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
        const { feature, changed } = await db.transaction(async (tx) => {
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
          const goalIds = await goals.ensureGoals(tx, organisationId, project.id, input.goals);
          await linkRepo.setGoals(tx, organisationId, row.id, goalIds);
          const by = { author: authorOf(principal), origin: originOf(principal, input.comment) };
          await recordFirstSettingsVersions(
            versions,
            tx,
            [
              {
                organisationId,
                featureId: row.id,
                snapshot: await settingsSnapshot(tx, team, organisationId, row),
              },
            ],
            by,
          );
          const environmentIds = await controls.createForFeature(tx, {
            organisationId,
            projectId: project.id,
            featureId: row.id,
            variantKeys: input.variants.map((v) => v.key),
            ...by,
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
              version: 1,
            }),
          );
          await deps.outbox(tx, organisationId, {
            kind: 'feature.created',
            projectKey,
            featureKey: row.key,
            actor: actorOf(principal),
            at: at.toISOString(),
          });
          const feature = await read.one(tx, principal, { feature: row, project });
          await linksWithin(tx, principal, feature, 'created', input.jiraIssueKeys);
          return { feature, changed: await changedWithin(tx, organisationId, environmentIds, row.id) };
        });
        publishProject(principal, changed, { kind: 'feature.created', projectKey, featureKey: feature.key });
        return feature;
      } catch (error) {
        // Another request took the same key between our read and insert.
        if (isUniqueViolation(error, 'features_project_key_unique')) throw keyTakenError(input.key);
        throw error;
      }
    },

    /**
     * PUT /api/v1/projects/{projectKey}/features: settings; the key and existing variant keys stay.
     * The settings' one write path (feature-settings-change.ts), which a restore takes too.
     */
    async update(principal: Principal, projectKey: string, input: FeatureInput): Promise<Feature> {
      if (input.id === undefined) throw new ValidationError('id', 'An id is required to update a feature.');
      const origin = originOf(principal, input.comment);
      return change(
        principal,
        projectKey,
        input.id,
        { origin, basedOn: input.lastModifiedDate },
        () => input,
      );
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
        const environmentIds = await environmentIdsOf(tx, organisationId, project.id);
        return {
          changed: await changedWithin(tx, organisationId, environmentIds, featureId),
          key: feature.key,
        };
      });
      publishProject(principal, archived.changed, {
        kind: 'feature.deleted',
        projectKey,
        featureKey: archived.key,
      });
    },

    /** PUT /api/v1/features/link: links an issue-tracker key to a feature (create permission, docs/product.md §2). */
    async link(principal: Principal, featureId: string, issueKey: string): Promise<Feature> {
      const organisationId = principal.organisationId;
      return db.transaction(async (tx) => {
        // Locked: a link is a change of the settings, whose versions are numbered one after another.
        const found = await repo.findById(tx, organisationId, featureId, { forUpdate: true });
        if (!found) throw new NotFoundError('feature', featureId);
        assertAllowed(principal, 'create', { type: 'feature', projectId: found.project.id });
        await billing.assertActive(tx, organisationId);
        const before = await settingsSnapshot(tx, team, organisationId, found.feature);
        const linked = !before.jiraIssueKeys.includes(issueKey);
        let row = found.feature;
        if (linked) {
          // A link changes the settings: a project that asks for change requests takes it through one.
          await settingsProtection(tx, principal, found.project, { id: featureId });
          await linkRepo.addIssueLinks(tx, organisationId, featureId, [issueKey]);
          const after = await repo.update(tx, organisationId, featureId, { updatedAt: now() });
          const version = await recordSettingsVersion(versions, tx, {
            organisationId,
            featureId,
            author: authorOf(principal),
            origin: originOf(principal),
            before,
            after: await settingsSnapshot(tx, team, organisationId, after),
          });
          row = after;
          await audit.record(
            tx,
            principal,
            featureAudit({
              kind: 'feature.linked',
              by: principal.email,
              feature: found.feature,
              project: found.project,
              issueKey,
              version,
            }),
          );
        }
        const feature = await read.one(tx, principal, { feature: row, project: found.project });
        if (linked) await linksWithin(tx, principal, feature, 'linked', [issueKey]);
        return feature;
      });
    },

    /** A project being removed archives its live features with it, in its transaction; how many. */
    archiveAllOf(tx: Executor, organisationId: string, projectId: string, at: Date): Promise<number> {
      return repo.archiveAllOfProject(tx, organisationId, projectId, at);
    },

    /** What change requests read of features' settings and how they write them (modules/change-requests). */
    forChangeRequests: {
      /** A live feature of a live project, with it; `forUpdate` locks its row. */
      find: repo.findById,
      /** The same, by keys. */
      findByKey: repo.findByKey,
      /** Its settings as a version keeps them, read now. */
      snapshot: (executor: Executor, organisationId: string, feature: FeatureRecord) =>
        settingsSnapshot(executor, team, organisationId, feature),
      /** The name a maintainer is shown by now (undefined for someone who is no member). */
      async maintainerName(executor: Executor, organisationId: string, id: string) {
        return (await team.summariesOf(executor, organisationId, [id])).get(id)?.name;
      },
      /**
       * Writes the settings `next` gives in the request's transaction `tx`, as the feature's next
       * version with source `change-request`; the caller runs `afterCommit` once `tx` commits.
       */
      write(
        tx: Executor,
        principal: Principal,
        where: { projectKey: string; featureId: string },
        request: { id: string; comment: string | null },
        next: (before: FeatureSettingsSnapshot) => FeatureSettings,
        /** A restore: the version brought forward and its snapshot, checked as a restore is. */
        restore?: { from: number; currentVersion: number; snapshot: FeatureSettingsSnapshot },
      ) {
        return change.within(
          tx,
          principal,
          where.projectKey,
          where.featureId,
          {
            origin: { source: 'change-request', comment: request.comment, changeRequestId: request.id },
            changeRequest: { id: request.id },
            restore,
          },
          next,
        );
      },
    },

    /** The settings' versions: history, one version, a diff, a restore (feature-history.ts). */
    history,

    /** PUT /api/v1/features/{featureId}/bookmark/{bookmarked}: per user. */
    async bookmark(principal: Principal, featureId: string, bookmarked: boolean) {
      const found = await repo.findById(db, principal.organisationId, featureId);
      if (!found) throw new NotFoundError('feature', featureId);
      await linkRepo.setBookmark(db, principal.organisationId, principal.userId, featureId, bookmarked);
      return { featureId, bookmarked };
    },
  };
}
