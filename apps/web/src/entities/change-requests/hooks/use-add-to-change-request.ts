import { useState } from 'react';
import type { ChangeRequest } from '@vexil/core';
import { changeRequestPath } from '../../../lib/paths';
import { notifySuccessWithLink } from '../../../components/linked-notification';
import { useAddChange, type ChangeBody } from '../api/change-request-changes';
import { useCreateChangeRequest } from '../api/create-change-request';
import { getChangeRequestPolicy } from '../api/get-change-request-policy';

/** The title a draft made for one change starts with. */
export function defaultChangeRequestTitle(featureName: string, environmentName: string): string {
  return `Change ${featureName} in ${environmentName}`;
}

/** What the toast after adding a change says. */
export function addedToChangeRequestMessage(request: Pick<ChangeRequest, 'title'>): string {
  return `Added to the change request “${request.title}”.`;
}

export type AddToChangeRequestInput = {
  projectKey: string;
  environment: { key: string; name: string };
  featureName: string;
  change: ChangeBody;
  /**
   * The user's open draft in the environment, as a 409 `change_request_required` named it; null when
   * the 409 named none (a draft is created); undefined when no write was tried (the policy names the
   * user's request that already changes the control, else their draft; one is created when neither).
   */
  changeRequestId: string | null | undefined;
};

/**
 * Where the user's change goes, as the server's policy says: their open request that already changes
 * this control (editing it, whatever its state), else their newest draft in the environment.
 */
async function findRequest(
  projectKey: string,
  environmentKey: string,
  change: ChangeBody,
): Promise<string | null> {
  const featureControlId = change.kind === 'control' ? change.id : undefined;
  return (await getChangeRequestPolicy(projectKey, environmentKey, { featureControlId })).changeRequestId;
}

/**
 * Puts a change the environment refused as a direct write into a change request
 * (docs/adr/0024-change-requests.md): into the user's open draft there, or a new draft titled
 * "Change {feature} in {environment}", then says so with a link to the request. Rejects with the
 * failing call's ApiError, for the caller to word; the caller still holds the edit.
 */
export function useAddToChangeRequest() {
  const create = useCreateChangeRequest();
  const addChange = useAddChange();
  const [pending, setPending] = useState(false);

  const add = async (input: AddToChangeRequestInput): Promise<ChangeRequest> => {
    const { projectKey, environment, featureName, change } = input;
    setPending(true);
    try {
      let id =
        input.changeRequestId === undefined
          ? await findRequest(projectKey, environment.key, change)
          : input.changeRequestId;
      if (id === null) {
        const draft = await create.mutateAsync({
          projectKey,
          request: {
            environmentKey: environment.key,
            title: defaultChangeRequestTitle(featureName, environment.name),
            description: '',
          },
        });
        id = draft.id;
      }
      const request = await addChange.mutateAsync({ projectKey, id, change });
      notifySuccessWithLink(addedToChangeRequestMessage(request), {
        label: 'Open the change request',
        to: changeRequestPath(projectKey, request.environmentKey, request.id),
      });
      return request;
    } finally {
      setPending(false);
    }
  };

  return { add, isPending: pending };
}
