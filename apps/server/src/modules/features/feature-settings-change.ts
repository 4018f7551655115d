import { isDeepStrictEqual } from 'node:util';
import {
  maintainerGoneReason,
  servedChangeDenial,
  unrestorableMessage,
  variantsAddedSinceReason,
  type Feature,
  type FeatureInput,
  type FeatureSettingsSnapshot,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { Scope } from '../scope/scope.service';
import type { TeamService } from '../team/team.service';
import { authorOf, type ChangeOrigin, type VersionsService } from '../versions/versions.service';
import { featureAudit } from './feature-audit';
import type { FeatureAnnouncer } from './feature-events';
import type { FeatureReadModel } from './feature-read-model';
import { recordSettingsVersion, settingsRef, settingsSnapshot } from './feature-versions';
import * as linkRepo from './feature-links.repository';
import type { GoalIds } from './ports';
import * as repo from './features.repository';

/** What a settings write stores: the Feature Settings form's fields, the maintainer by id. */
export type FeatureSettings = Pick<
  FeatureInput,
  | 'name'
  | 'key'
  | 'description'
  | 'permanent'
  | 'variants'
  | 'tags'
  | 'jiraIssueKeys'
  | 'goals'
  | 'maintainerId'
>;

/** The settings a version's snapshot holds, as a write stores them. */
export function settingsOf(snapshot: FeatureSettingsSnapshot): FeatureSettings {
  return {
    name: snapshot.name,
    key: snapshot.key,
    description: snapshot.description,
    permanent: snapshot.permanent,
    variants: snapshot.variants.map((v) => ({ ...v })),
    tags: [...snapshot.tags],
    jiraIssueKeys: [...snapshot.jiraIssueKeys],
    goals: [...snapshot.goals],
    maintainerId: snapshot.maintainer?.id ?? null,
  };
}

/**
 * A feature's variants as every environment's SDK payload carries them (see `buildControls` in
 * `src/sdk/sdk-store.ts`): key, name and value, in order. The value goes through JSON so that a
 * stored jsonb value and the same value sent back compare equal (key order, -0).
 */
function servedVariants(list: readonly { key: string; name: string; value?: unknown }[]) {
  return list.map((v) => ({ key: v.key, name: v.name, value: JSON.parse(JSON.stringify(v.value ?? null)) }));
}

/** How one write of a feature's settings is checked and recorded. */
export type SettingsChangeOptions = {
  origin: ChangeOrigin;
  /** The `lastModifiedDate` the editor saw (the Feature Settings form). */
  basedOn?: string | undefined;
  /** A restore: the version brought forward, its snapshot, and the version the restorer saw as current. */
  restore?: { from: number; currentVersion: number; snapshot: FeatureSettingsSnapshot } | undefined;
  /** The applied change request this write belongs to; without one, the project's protection decides. */
  changeRequest?: { id: string } | undefined;
};

/**
 * Whether a write outside a change request may change a feature's settings
 * (docs/adr/0024-change-requests.md): they apply to every environment of the project, so a project
 * with an environment that asks for change requests takes them only through one. Resolves
 * `{bypass}` as the environment's rule does, or rejects with 409 `change_request_required`.
 */
export type ProjectProtection = (
  executor: Executor,
  principal: Principal,
  project: { id: string },
  feature: { id: string },
) => Promise<{ bypass: boolean }>;

export type FeatureSettingsChange = ReturnType<typeof createFeatureSettingsChange>;

/**
 * The one write path of a feature's settings (a save, a restore), in one transaction: the row locked,
 * permission and subscription checked, refused with 409 when it changed since what the writer saw,
 * the key and the saved variants kept, variants changed only with rights in every environment that
 * serves them; stored, versioned when the settings changed (docs/adr/0022-versions.md) and audited,
 * then announced to every environment's SDK payload, the live dashboards and the issue tracker.
 */
export function createFeatureSettingsChange(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  scope: Scope;
  team: TeamService;
  versions: VersionsService;
  read: FeatureReadModel;
  goals: GoalIds;
  announce: FeatureAnnouncer;
  protection: ProjectProtection;
  now: () => Date;
}) {
  const { db, audit, billing, scope, team, versions, read, announce, protection, now } = deps;

  /** Makes the feature's goals exactly `keys`, creating goals the project does not have yet. */
  async function setGoals(
    tx: Executor,
    organisationId: string,
    projectId: string,
    id: string,
    keys: string[],
  ) {
    const goalIds = await deps.goals.ensureGoals(tx, organisationId, projectId, keys);
    await linkRepo.setGoals(tx, organisationId, id, goalIds);
  }

  /** Why a restore cannot store its version: what changed since and a restore cannot undo. */
  async function restoreProblems(
    tx: Executor,
    organisationId: string,
    settings: FeatureSettings,
    removedVariants: string[],
    snapshot: FeatureSettingsSnapshot,
  ): Promise<string[]> {
    const reasons = removedVariants.length > 0 ? [variantsAddedSinceReason(removedVariants)] : [];
    if (settings.maintainerId !== null) {
      const found = await team.summariesOf(tx, organisationId, [settings.maintainerId]);
      if (!found.has(settings.maintainerId)) {
        reasons.push(maintainerGoneReason(snapshot.maintainer?.name ?? settings.maintainerId));
      }
    }
    return reasons;
  }

  /** One write in the caller's transaction `tx`; the caller runs `afterCommit` once it commits. */
  async function within(
    tx: Executor,
    principal: Principal,
    projectKey: string,
    featureId: string,
    options: SettingsChangeOptions,
    next: (before: FeatureSettingsSnapshot) => FeatureSettings,
  ): Promise<{ feature: Feature; afterCommit: () => void }> {
    const organisationId = principal.organisationId;

    const found = await repo.findById(tx, organisationId, featureId, { forUpdate: true });
    if (!found || found.project.key !== projectKey) throw new NotFoundError('feature', featureId);
    // An applied change request was drafted by someone with these rights (change-requests module).
    const drafted = options.changeRequest !== undefined;
    if (!drafted) assertAllowed(principal, 'update', { type: 'feature', projectId: found.project.id });
    await billing.assertActive(tx, organisationId);
    const { bypass } = drafted
      ? { bypass: false }
      : await protection(tx, principal, found.project, { id: featureId });
    const { feature: before, project } = found;
    const stale = () => audit.staleWrite(tx, principal, { type: 'feature', id: featureId }, 'feature');
    if (changedSince(before.updatedAt, options.basedOn)) throw await stale();
    if (options.restore) {
      const current = await versions.latest(tx, settingsRef(organisationId, featureId));
      if (current && current.number !== options.restore.currentVersion) throw await stale();
    }
    const beforeSnapshot = await settingsSnapshot(tx, team, organisationId, before);
    const input = next(beforeSnapshot);
    if (input.key !== before.key) throw new ValidationError('key', 'The key of a feature cannot be changed.');
    const existing = await repo.variantsOf(tx, organisationId, [featureId]);
    const incoming = new Map(input.variants.map((v, position) => [v.key, { ...v, position }]));
    const removed = existing.filter((v) => !incoming.has(v.key)).map((v) => v.key);
    if (options.restore) {
      const { from, snapshot } = options.restore;
      const reasons = await restoreProblems(tx, organisationId, input, removed, snapshot);
      if (reasons.length > 0) throw new ConflictError(unrestorableMessage(from, reasons));
    }
    await team.assertMember(tx, organisationId, input.maintainerId, 'maintainerId');
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
    const environments = await scope.environmentsOf(tx, organisationId, project.id);
    if (!drafted && !isDeepStrictEqual(servedBefore, servedAfter)) {
      const denial = servedChangeDenial(
        principal,
        environments.map(({ production, tags }) => ({ production, tags, projectId: project.id })),
      );
      if (denial) throw ForbiddenError.of(denial);
    }
    const servedNext = new Map(servedAfter.map((v) => [v.key, v]));
    const edited = servedBefore.filter((v) => !isDeepStrictEqual(v, servedNext.get(v.key))).map((v) => v.key);
    const at = now();
    for (const variant of existing) {
      const update = incoming.get(variant.key)!;
      await repo.updateVariant(tx, featureId, variant.key, {
        name: update.name,
        description: update.description,
        value: update.value ?? null,
        position: update.position,
        updatedAt: at,
      });
    }
    const added = input.variants.filter((v) => !existing.some((e) => e.key === v.key));
    await repo.insertVariants(
      tx,
      added.map((variant) => ({
        organisationId,
        featureId,
        key: variant.key,
        name: variant.name,
        description: variant.description,
        value: variant.value ?? null,
        position: incoming.get(variant.key)!.position,
      })),
    );
    const linkedKeys = beforeSnapshot.jiraIssueKeys;
    const unlinked = linkedKeys.filter((k) => !input.jiraIssueKeys.includes(k));
    await linkRepo.removeIssueLinks(tx, featureId, unlinked);
    const linkedIssues = input.jiraIssueKeys.filter((k) => !linkedKeys.includes(k));
    await linkRepo.addIssueLinks(tx, organisationId, featureId, linkedIssues);
    await setGoals(tx, organisationId, project.id, featureId, input.goals);
    const after = await repo.update(tx, organisationId, featureId, {
      name: input.name,
      description: input.description,
      permanent: input.permanent,
      tags: input.tags,
      maintainerId: input.maintainerId,
      updatedAt: at,
    });
    const version = await recordSettingsVersion(versions, tx, {
      organisationId,
      featureId,
      author: authorOf(principal),
      origin: options.origin,
      restoredFrom: options.restore?.from,
      before: beforeSnapshot,
      after: await settingsSnapshot(tx, team, organisationId, after),
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
        version,
        restoredFrom: options.restore?.from,
        bypass,
      }),
    );
    const feature = await read.one(tx, principal, { feature: after, project });
    await announce.linksWithin(tx, principal, feature, 'linked', linkedIssues);
    const changed = await announce.changedWithin(
      tx,
      organisationId,
      environments.map((environment) => environment.id),
      featureId,
    );
    return {
      feature,
      afterCommit: () =>
        announce.publishProject(principal, changed, {
          kind: 'feature.settings',
          projectKey,
          featureKey: feature.key,
        }),
    };
  }

  /** One write in its own transaction. */
  async function change(
    principal: Principal,
    projectKey: string,
    featureId: string,
    options: SettingsChangeOptions,
    next: (before: FeatureSettingsSnapshot) => FeatureSettings,
  ): Promise<Feature> {
    const write = await db.transaction((tx) => within(tx, principal, projectKey, featureId, options, next));
    write.afterCommit();
    return write.feature;
  }

  return Object.assign(change, { within });
}
