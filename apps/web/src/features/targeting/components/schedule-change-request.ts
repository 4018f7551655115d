import { useState } from 'react';
import type { ScheduleInput } from '@vexil/core';
import { useAddToChangeRequest } from '../../../entities/change-requests/hooks/use-add-to-change-request';
import { hasErrorCode, isApiError, type ApiError } from '../../../lib/api-client';

/** What the form says when the environment asks for change requests. */
export function throughRequestMessage(refusal: ApiError): string {
  return `${refusal.title} Add it to a change request to have it reviewed: it is scheduled once the request is applied.`;
}

/** The title of the draft made for a schedule refused because the environment asks for change requests. */
export function scheduleRequestTitle(featureName: string, environmentName: string): string {
  return `Schedule ${featureName} in ${environmentName}`;
}

/**
 * A schedule refused as a direct write (409 `change_request_required`, docs/adr/0025-scheduler.md),
 * put into a change request instead: into the request the refusal named, else a new draft there.
 * Applying the request makes the schedule, approved by it.
 */
export function useScheduleThroughRequest(target: {
  projectKey: string;
  featureName: string;
  environmentName: string;
}) {
  const toRequest = useAddToChangeRequest();
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  return {
    /** The refusal that offers a change request, once a create was refused so. */
    refusal,
    /** Whether a failed create was the environment asking for a change request (then remembered). */
    caught(error: unknown): error is ApiError {
      if (!hasErrorCode(error, 'change_request_required') || !isApiError(error)) return false;
      setRefusal(error);
      return true;
    },
    /** Adds the schedule to the change request; rejects with the failing call's error. */
    async add(input: ScheduleInput): Promise<void> {
      await toRequest.add({
        projectKey: target.projectKey,
        environmentKey: refusal?.environmentKey ?? input.environmentKey,
        title: scheduleRequestTitle(target.featureName, target.environmentName),
        change: { kind: 'schedule', schedule: input },
        changeRequestId: refusal?.changeRequestId ?? null,
      });
    },
    isPending: toRequest.isPending,
  };
}
