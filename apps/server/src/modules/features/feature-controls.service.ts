import { defaultControlFor } from '@vexil/core';
import type { Executor } from '../../db/client';
import * as repo from './feature-controls.repository';

export type FeatureControlsService = ReturnType<typeof createFeatureControlsService>;

/** Feature controls: one per feature and environment (spec §3). */
export function createFeatureControlsService() {
  return {
    /**
     * Gives a new environment a control for every live feature of its project: copied from
     * `cloneFromEnvironmentId` (switch, off variant, rules; not what SDKs reported) when given,
     * else the default control (off, serving `off`).
     */
    async createForEnvironment(
      tx: Executor,
      target: {
        organisationId: string;
        projectId: string;
        environmentId: string;
        cloneFromEnvironmentId?: string | undefined;
      },
    ): Promise<void> {
      const { organisationId, projectId, environmentId } = target;
      const featureVariants = await repo.listFeatureVariantKeys(tx, organisationId, projectId);
      const source = target.cloneFromEnvironmentId
        ? new Map(
            (await repo.listControlsOfEnvironment(tx, organisationId, target.cloneFromEnvironmentId)).map(
              (control) => [control.featureId, control],
            ),
          )
        : new Map();
      const rows = [...featureVariants].map(([featureId, variantKeys]) => {
        const copied = source.get(featureId);
        const control = copied
          ? { enabled: copied.enabled, offVariantKey: copied.offVariantKey, rules: copied.rules }
          : defaultControlFor(variantKeys);
        return { organisationId, featureId, environmentId, ...control };
      });
      await repo.insertControls(tx, rows);
    },
  };
}
