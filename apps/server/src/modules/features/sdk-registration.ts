import { FEATURE_KEY_PATTERN, defaultVariants } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { NotFoundError } from '../../errors';
import type { ChangeEvents } from '../../lib/change-events';
import type { AuditService } from '../audit/audit.service';
import type { BillingService } from '../billing/billing.service';
import type { ControlsService } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import type { VersionsService } from '../versions/versions.service';
import { featureAudit } from './feature-audit';
import { recordFirstSettingsVersions, settingsSnapshot, type MaintainerNames } from './feature-versions';
import * as repo from './features.repository';

/** One feature an SDK declares (docs/sdk-protocol.md §5). */
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

export type SdkRegistrationCommand = ReturnType<typeof createSdkRegistration>;

/**
 * PUT /api/sdk/v1/register: marks the declared features that exist available in the key's
 * environment and, where the environment lets SDKs create features (`sdkCanCreateFeatures`, off in
 * production by default), creates those the project lacks (with their variants, default on/off).
 * The SDK, named by its key's environment, is the audit log's actor. Features past the plan's
 * limit, while the subscription is inactive, or in an environment that does not let SDKs create
 * features or asks for change requests, are not created: they come back as `refused`, and the SDK is told 200 either way (see
 * the route).
 */
export function createSdkRegistration(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  controls: ControlsService;
  scope: Scope;
  events: ChangeEvents;
  /** The features' first versions (docs/adr/0022-versions.md): source `sdk`, no author. */
  versions: VersionsService;
  team: MaintainerNames;
  /**
   * Whether the environment asks for change requests (docs/adr/0024-change-requests.md): an SDK
   * creates no feature there, as none may be changed there without one.
   */
  isProtected?: (executor: Executor, organisationId: string, environmentId: string) => Promise<boolean>;
  now?: () => Date;
}) {
  const { db, audit, billing, controls, scope, events, versions, team } = deps;
  const isProtected = deps.isProtected ?? (async () => false);
  const now = deps.now ?? (() => new Date());

  return async function register(
    environment: { organisationId: string; projectId: string; environmentId: string },
    items: readonly SdkRegistration[],
  ): Promise<{ created: string[]; registered: string[]; refused: string[] }> {
    const { organisationId, projectId, environmentId } = environment;
    const actor = { organisationId, userId: null };
    const result = await db.transaction(async (tx) => {
      await lockOrganisation(tx, organisationId);
      const target = await scope.findEnvironmentById(tx, organisationId, environmentId);
      if (!target) throw new NotFoundError('environment', environmentId);
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
      const createdIds: string[] = [];
      const registered: string[] = [];
      const refused: string[] = [];
      let environmentIds: string[] = [environmentId];
      // While the subscription is inactive features are not created; the declared ones still become
      // available, and evaluation carries on (docs/product.md §4).
      let active: boolean | null = null;
      let protectedHere: boolean | null = null;
      for (const item of items) {
        let featureId = existing.get(item.key);
        if (!featureId) {
          protectedHere ??=
            target.sdkCanCreateFeatures && (await isProtected(tx, organisationId, environmentId));
          if (!target.sdkCanCreateFeatures || protectedHere) {
            refused.push(item.key);
            continue;
          }
          active ??= await billing.isActive(tx, organisationId);
          if (!active) {
            refused.push(item.key);
            continue;
          }
          if ((await billing.remaining(tx, organisationId, 'maxFeatures')) < 1) {
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
            { author: null, origin: { source: 'sdk' } },
          );
          environmentIds = await controls.createForFeature(tx, {
            organisationId,
            projectId,
            featureId: row.id,
            variantKeys: variants.map((v) => v.key),
            author: null,
            origin: { source: 'sdk' },
          });
          await audit.record(
            tx,
            actor,
            featureAudit({
              kind: 'feature.registered',
              feature: row,
              environment: {
                id: environmentId,
                key: target.key,
                name: target.name,
                projectKey: target.project.key,
              },
              variantKeys: variants.map((v) => v.key),
            }),
          );
          featureId = row.id;
          existing.set(item.key, featureId);
          created.push(item.key);
          createdIds.push(featureId);
        }
        await controls.markAvailable(tx, featureId, environmentId, at);
        registered.push(item.key);
      }
      // The created features' entries are patched into each payload; a registration that created
      // none changed nothing served (availability is not in the payload).
      const changed = await events.withinAll(
        tx,
        createdIds.length === 0
          ? []
          : environmentIds.map((id) => ({
              type: 'environment.changed' as const,
              organisationId,
              environmentId: id,
              featureIds: createdIds,
            })),
      );
      return { created, registered, refused, changed };
    });
    for (const event of result.changed) events.publish(event);
    return { created: result.created, registered: result.registered, refused: result.refused };
  };
}
