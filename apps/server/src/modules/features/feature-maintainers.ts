import type { Executor } from '../../db/client';
import type { Principal } from '../auth/auth.service';
import { authorOf, originOf, type VersionsService } from '../versions/versions.service';
import { recordSettingsVersion, settingsSnapshot, type MaintainerNames } from './feature-versions';
import * as repo from './feature-maintainers.repository';

/** Why the features a removed member maintained changed: kept with their versions. */
export const MAINTAINER_REMOVED_COMMENT = 'The maintainer was removed from the organisation.';

/**
 * What the features module does when a member leaves (the members module's port, given by the
 * composition root): the features they maintained lose their maintainer in the removal's transaction,
 * each with a version of its settings by the admin who removed them (docs/adr/0022-versions.md), rather
 * than the database clearing the column behind the history's back.
 */
export function createMaintainerRelease(deps: {
  team: MaintainerNames;
  versions: VersionsService;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return async function releaseMaintainer(tx: Executor, principal: Principal, userId: string): Promise<void> {
    const organisationId = principal.organisationId;
    const maintained = await repo.maintainedBy(tx, organisationId, userId);
    for (const feature of maintained) {
      const before = await settingsSnapshot(tx, deps.team, organisationId, feature);
      await repo.clearMaintainer(tx, organisationId, feature.id, now());
      await recordSettingsVersion(deps.versions, tx, {
        organisationId,
        featureId: feature.id,
        author: authorOf(principal),
        origin: originOf(principal, MAINTAINER_REMOVED_COMMENT),
        before,
        after: { ...before, maintainer: null },
      });
    }
  };
}

/** The port's type, for the members module. */
export type MaintainerRelease = ReturnType<typeof createMaintainerRelease>;
