import type { EnvironmentConstraint, Segment } from '@vexil/core';
import { assertAllowed } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { SegmentRecord } from './segments.types';

/** A segment as the API returns it. */
export function toSegment(row: SegmentRecord, projectKey: string, environmentKey: string): Segment {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    projectKey,
    environmentKey,
    lastModifiedDate: row.updatedAt.toISOString(),
  };
}

/** A segment write needs that right in its environment (production marker and tags). */
export function assertSegmentAllowed(
  principal: Principal,
  action: 'create' | 'update' | 'delete',
  environment: EnvironmentConstraint,
  projectId: string,
) {
  assertAllowed(principal, action, {
    type: 'segment',
    environment: { production: environment.production, tags: environment.tags ?? [], projectId },
  });
}
