import { useState } from 'react';
import type { EnvironmentConstraint, Principal, Segment } from '@vexil/core';
import { hasErrorCode, type ApiError } from '../../../lib/api-client';
import type { SegmentUpdate } from '../../../entities/segments/api/update-segment';
import {
  segmentChangeRequestTitle,
  useAddToChangeRequest,
} from '../../../entities/change-requests/hooks/use-add-to-change-request';
import { useEnvironmentProtection } from '../../../entities/change-requests/hooks/use-environment-protection';

/** The environment facts the segment form needs: where it saves, and what protects it. */
export type SegmentEnvironment = EnvironmentConstraint & { key: string };

/**
 * How the Edit Segment form saves in an environment that asks for change requests
 * (docs/adr/0024-change-requests.md). Known from the environment's policy (where the user may not
 * bypass it), or from an update refused with 409 `change_request_required`: Save becomes "Add to
 * change request", which puts the update (the body the direct save sends) into the user's request
 * that already changes the segment, else their newest draft there, else a new draft "Change segment
 * {name}". Creating a segment is never protected.
 */
export function useSegmentChangeRequest(
  user: Principal,
  projectKey: string,
  environment: SegmentEnvironment,
  segment: Pick<Segment, 'name'> | undefined,
) {
  const protection = useEnvironmentProtection(user, projectKey, environment);
  const toChangeRequest = useAddToChangeRequest();
  const [refusal, setRefusal] = useState<string | null>(null);
  // Where a refusal said the update goes; undefined until one did (the policy then finds the request).
  const [destination, setDestination] = useState<{
    environmentKey: string;
    changeRequestId: string | null;
  }>();

  return {
    /** Save adds the update to a change request rather than writing it live. */
    throughRequest: segment !== undefined && (protection.throughRequest || refusal !== null),
    refusal,
    /** Takes a failed update: true when it was refused for want of a change request. */
    refused(error: unknown): error is ApiError {
      if (!hasErrorCode(error, 'change_request_required')) return false;
      setRefusal(error.title ?? 'This environment asks for change requests.');
      setDestination({
        environmentKey: error.environmentKey ?? environment.key,
        changeRequestId: error.changeRequestId ?? null,
      });
      return true;
    },
    /** Adds the update to the change request, says so with a link; rejects with the failure. */
    async add(update: SegmentUpdate): Promise<void> {
      const request = await toChangeRequest.add({
        projectKey,
        environmentKey: destination?.environmentKey ?? environment.key,
        title: segmentChangeRequestTitle(segment?.name ?? update.name),
        change: { kind: 'segment', ...update },
        changeRequestId: destination?.changeRequestId,
      });
      setDestination({ environmentKey: request.environmentKey, changeRequestId: request.id });
    },
  };
}
