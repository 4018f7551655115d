import { useState } from 'react';
import type { ChangeRequest } from '@vexil/core';
import { changeRequestPath } from '../../../lib/paths';
import { notifySuccessWithLink } from '../../../components/linked-notification';
import { useAddChange, type ChangeBody } from '../api/change-request-changes';
import { useCreateChangeRequest } from '../api/create-change-request';
import { getChangeRequestPolicy, type ChangeRequestPolicySubject } from '../api/get-change-request-policy';

/** The title a draft made for one change of a control starts with. */
export function defaultChangeRequestTitle(featureName: string, environmentName: string): string {
  return `Change ${featureName} in ${environmentName}`;
}

/** The title a draft made for a change of a feature's settings starts with. */
export function featureSettingsChangeRequestTitle(featureName: string): string {
  return `Change ${featureName} settings`;
}

/** The title a draft made for a change of a segment starts with. */
export function segmentChangeRequestTitle(segmentName: string): string {
  return `Change segment ${segmentName}`;
}

/** What the toast after adding a change says. */
export function addedToChangeRequestMessage(request: Pick<ChangeRequest, 'title'>): string {
  return `Added to the change request “${request.title}”.`;
}

export type AddToChangeRequestInput = {
  projectKey: string;
  /**
   * The environment whose change requests the change goes through: the one a 409
   * `change_request_required` named (for a feature's settings, the project's first protected
   * environment, which need not be the page's), else the page's.
   */
  environmentKey: string;
  /** The title of the draft created when the change has no request to go into. */
  title: string;
  change: ChangeBody;
  /**
   * The user's request there, as a 409 `change_request_required` named it; null when the 409 named
   * none (a draft is created); undefined when no write was tried (the policy names the user's request
   * that already changes the same thing, else their draft; one is created when neither).
   */
  changeRequestId: string | null | undefined;
};

/** What the policy is asked about, for each kind of change. */
function subjectOf(change: ChangeBody): ChangeRequestPolicySubject {
  switch (change.kind) {
    case 'control':
      return { featureControlId: change.id };
    case 'feature':
      return { featureId: change.id };
    case 'segment':
      return { segmentId: change.id };
    default:
      return {};
  }
}

/**
 * Where the user's change goes, as the server's policy says: their open request that already changes
 * the same control, settings or segment (editing it, whatever its state), else their newest draft in
 * the environment.
 */
async function findRequest(
  projectKey: string,
  environmentKey: string,
  change: ChangeBody,
): Promise<string | null> {
  return (await getChangeRequestPolicy(projectKey, environmentKey, subjectOf(change))).changeRequestId;
}

/**
 * Puts a change the environment refused as a direct write into a change request
 * (docs/adr/0024-change-requests.md): into the user's open request there, or a new draft with the
 * caller's title, then says so with a link to the request. Rejects with the failing call's ApiError,
 * for the caller to word; the caller still holds the edit.
 */
export function useAddToChangeRequest() {
  const create = useCreateChangeRequest();
  const addChange = useAddChange();
  const [pending, setPending] = useState(false);

  const add = async (input: AddToChangeRequestInput): Promise<ChangeRequest> => {
    const { projectKey, environmentKey, title, change } = input;
    setPending(true);
    try {
      let id =
        input.changeRequestId === undefined
          ? await findRequest(projectKey, environmentKey, change)
          : input.changeRequestId;
      if (id === null) {
        const draft = await create.mutateAsync({
          projectKey,
          request: { environmentKey, title, description: '' },
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
