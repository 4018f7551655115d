import { useState } from 'react';
import { hasErrorCode, type ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import type { Feature, FeatureControlInput, ProjectSummary } from '@vexil/core';
import {
  defaultChangeRequestTitle,
  useAddToChangeRequest,
} from '../../../entities/change-requests/hooks/use-add-to-change-request';
import { useEnvironmentProtection } from '../../../entities/change-requests/hooks/use-environment-protection';

/**
 * How the Targeting tab saves in an environment that asks for change requests
 * (docs/adr/0024-change-requests.md). Known from its approval settings, or from a save refused with
 * 409 `change_request_required`: Save becomes "Add to change request", which puts the edit (the body
 * the direct save would have sent) into the user's draft there, or a new one. The form keeps the edit
 * either way; while it holds what was added, it says so instead of asking to save.
 */
export function useTargetingChangeRequest(
  feature: Pick<Feature, 'name' | 'projectKey'>,
  environment: ProjectSummary['environments'][number],
) {
  const { principalUser, projects } = useSession();
  const projectId = projects.find((project) => project.key === feature.projectKey)?.id;
  const protection = useEnvironmentProtection(principalUser, feature.projectKey, {
    ...environment,
    projectId,
  });
  const toChangeRequest = useAddToChangeRequest();
  // The user's draft there: unknown (undefined) until a refusal names it (or says there is none, null)
  // or an edit goes into one.
  const [requestId, setRequestId] = useState<string | null | undefined>(undefined);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The signature of the draft last put into a change request.
  const [added, setAdded] = useState<string | null>(null);

  return {
    /** Save adds to a change request rather than writing live. */
    throughRequest: protection.throughRequest || refusal !== null,
    refusal,
    isPending: toChangeRequest.isPending,
    /** Whether the form holds what was last added, by the draft's signature. */
    holdsAdded: (signature: string) => added === signature,
    /** Takes a failed direct save: true when it was refused for want of a change request. */
    refused(error: unknown): error is ApiError {
      if (!hasErrorCode(error, 'change_request_required')) return false;
      setRefusal(error.title ?? 'This environment asks for a change request.');
      setRequestId(error.changeRequestId ?? null);
      return true;
    },
    /** Adds the edit (as the direct save would send it) to the change request; rejects with the failure. */
    async add(input: FeatureControlInput, signature: string): Promise<void> {
      const request = await toChangeRequest.add({
        projectKey: feature.projectKey,
        environmentKey: environment.key,
        title: defaultChangeRequestTitle(feature.name, environment.name),
        change: { kind: 'control', ...input },
        changeRequestId: requestId,
      });
      setRequestId(request.id);
      setAdded(signature);
    },
  };
}
