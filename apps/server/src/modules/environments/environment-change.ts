import type { ChangeEvent, ChangeEvents } from '../../lib/change-events';
import { isProductionEnvironment, type EnvironmentInput, type EnvironmentSnapshot } from '@vexil/core';
import { AUDIT_ENVIRONMENT_FIELDS } from '@vexil/core/audit-entries';
import type { Database } from '../../db/client';
import { NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import { authorOf, type ChangeOrigin, type VersionsService } from '../versions/versions.service';
import { environmentAudit } from './environment-audit';
import { environmentRef, environmentSnapshot, recordEnvironmentVersion } from './environment-versions';
import * as repo from './environments.repository';
import type { EnvironmentRecord } from './environments.types';

/**
 * Whether registration may create features after an update: as asked; when not asked, as before,
 * except that an environment becoming production falls back to production's default (off).
 */
export function nextSdkCanCreateFeatures(
  before: Pick<EnvironmentRecord, 'production' | 'tags' | 'sdkCanCreateFeatures'>,
  input: Pick<EnvironmentInput, 'sdkCanCreateFeatures' | 'production' | 'tags'>,
): boolean {
  if (input.sdkCanCreateFeatures !== undefined) return input.sdkCanCreateFeatures;
  const becomesProduction = !isProductionEnvironment(before) && isProductionEnvironment(input);
  return becomesProduction ? false : before.sdkCanCreateFeatures;
}

/** An environment as its audit entries describe it. */
export function audited(row: Pick<EnvironmentRecord, 'id' | 'name' | 'key' | 'production' | 'local'>) {
  return { id: row.id, key: row.key, name: row.name, production: row.production, local: row.local };
}

/** How one write of an environment's settings is checked and recorded. */
export type EnvironmentChangeOptions = {
  origin: ChangeOrigin;
  /** The project the caller named: an environment cannot move to another. */
  projectKey: string;
  /** The `lastModifiedDate` the editor saw (the Edit Environment form). */
  basedOn?: string | undefined;
  /** A restore: the version brought forward and the version the restorer saw as current. */
  restore?: { from: number; currentVersion: number } | undefined;
};

export type EnvironmentChange = ReturnType<typeof createEnvironmentChange>;

/**
 * The one write path of an environment's settings (a save, a restore), in one transaction: the row
 * locked, organisation-admin rights and the subscription checked, refused with 409 when it changed
 * since what the writer saw, the key and project kept; stored, versioned when the settings changed
 * (docs/adr/0022-versions.md) and audited with the version; the other instances are told with the
 * commit. The caller publishes the answered event here after the commit.
 */
export function createEnvironmentChange(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  versions: VersionsService;
  events: ChangeEvents;
  now: () => Date;
}) {
  const { db, audit, billing, versions, events, now } = deps;
  return async function change(
    principal: Principal,
    id: string,
    options: EnvironmentChangeOptions,
    next: (before: EnvironmentSnapshot) => EnvironmentSnapshot,
  ): Promise<{ after: EnvironmentRecord; projectKey: string; changed: ChangeEvent }> {
    assertAllowed(principal, 'update', { type: 'environment' });
    const organisationId = principal.organisationId;
    return db.transaction(async (tx) => {
      const found = await repo.findById(tx, organisationId, id, { forUpdate: true });
      if (!found) throw new NotFoundError('environment', id);
      await billing.assertActive(tx, organisationId);
      const { environment: before, project } = found;
      const stale = () => audit.staleWrite(tx, principal, { type: 'environment', id }, 'environment');
      if (changedSince(before.updatedAt, options.basedOn)) throw await stale();
      if (options.restore) {
        const current = await versions.latest(tx, environmentRef(organisationId, id));
        if (current && current.number !== options.restore.currentVersion) throw await stale();
      }
      if (options.projectKey !== project.key) {
        throw new ValidationError('projectKey', 'An environment cannot move to another project.');
      }
      const beforeSnapshot = environmentSnapshot(before);
      const input = next(beforeSnapshot);
      if (input.key !== before.key)
        throw new ValidationError('key', 'The key of an environment cannot be changed.');
      const stored = { ...input, url: input.url || null };
      const changes = AUDIT_ENVIRONMENT_FIELDS.filter(
        (field) => JSON.stringify(before[field]) !== JSON.stringify(stored[field]),
      );
      const after = await repo.update(tx, organisationId, id, {
        name: stored.name,
        url: stored.url,
        color: stored.color,
        local: stored.local,
        production: stored.production,
        tags: stored.tags,
        sdkCanCreateFeatures: stored.sdkCanCreateFeatures,
        updatedAt: now(),
      });
      const version = await recordEnvironmentVersion(versions, tx, {
        organisationId,
        environment: after,
        author: authorOf(principal),
        origin: options.origin,
        restoredFrom: options.restore?.from,
        before: beforeSnapshot,
      });
      await audit.record(
        tx,
        principal,
        environmentAudit({
          kind: 'environment.updated',
          by: principal.email,
          environment: audited(after),
          project: { key: project.key, name: project.name },
          changes: changes.map((field) => ({ field, from: before[field], to: stored[field] })),
          version,
          restoredFrom: options.restore?.from,
        }),
      );
      const changed = await events.within(tx, {
        type: 'environment.changed',
        organisationId,
        environmentId: id,
      });
      return { after, projectKey: project.key, changed };
    });
  };
}
