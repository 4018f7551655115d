import type { ChangeInput } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { Principal } from '../auth/auth.service';
import type { ControlsService } from '../controls/controls.service';
import type { AuditService } from '../audit/audit.service';
import type { FeaturesService } from '../features/features.service';
import type { SegmentsService } from '../segments/segments.service';
import type { VersionsService } from '../versions/versions.service';
import type { ChangePlan, ResolvedChange } from './change-plan';
import type { ChangeRow, RequestInScope } from './change-requests.repository';
import { createControlChanges } from './control-changes';
import { createFeatureChanges } from './feature-changes';
import { createSegmentChanges } from './segment-changes';
import { createScheduleChanges } from './schedule-changes';
import type { SchedulesService } from '../schedules/schedules.service';

export type ChangeKinds = ReturnType<typeof createChangeKinds>;

/** Every kind of change a request holds, chosen by the input's kind or the stored change's resource. */
export function createChangeKinds(deps: {
  controls: ControlsService['forChangeRequests'];
  features: FeaturesService['forChangeRequests'];
  segments: SegmentsService['forChangeRequests'];
  versions: VersionsService;
  audit: AuditService;
  /** Filled once the schedules exist (they are made after change requests, whose apply they call). */
  schedules: () => SchedulesService['forChangeRequests'];
}) {
  const { versions, audit } = deps;
  const controls = createControlChanges({ controls: deps.controls, versions, audit });
  const features = createFeatureChanges({ features: deps.features, versions, audit });
  const segments = createSegmentChanges({ segments: deps.segments, versions, audit });
  const schedules = createScheduleChanges({ schedules: deps.schedules });

  return {
    /** What adding `input` stores, checked as its direct write would be. */
    resolve(
      tx: Executor,
      principal: Principal,
      found: RequestInScope,
      input: ChangeInput,
    ): Promise<ResolvedChange> {
      switch (input.kind) {
        case 'control':
          return controls.resolve(tx, principal, found, input);
        case 'restore':
          if (input.of === 'settings') return features.restore!(tx, principal, found, input);
          if (input.of === 'segment') return segments.restore!(tx, principal, found, input);
          return controls.resolve(tx, principal, found, input);
        case 'feature':
          return features.resolve(tx, principal, found, input);
        case 'segment':
          return segments.resolve(tx, principal, found, input);
        case 'schedule':
          return schedules.resolve(tx, principal, found, input);
      }
    },

    /** The change against what is live; null when its resource is gone. */
    plan(
      executor: Executor,
      organisationId: string,
      change: ChangeRow,
      options: { forUpdate?: boolean } = {},
    ): Promise<ChangePlan | null> {
      // A schedule names the schedule it will make, not a resource that is live.
      if (change.kind === 'schedule') return schedules.plan(executor, organisationId, change, options);
      switch (change.resourceType) {
        case 'feature_control':
          return controls.plan(executor, organisationId, change, options);
        case 'feature':
          return features.plan(executor, organisationId, change, options);
        case 'segment':
          return segments.plan(executor, organisationId, change, options);
        case 'environment':
          return Promise.resolve(null);
      }
    },
  };
}
