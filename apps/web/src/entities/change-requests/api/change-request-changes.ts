import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { z } from 'zod';
import {
  changeRequestSchema,
  type ChangeRequest,
  type changeInputSchema,
  type RebaseInput,
} from '@vexil/core';
import { changeRequestsApi, useChangeRequestChanged } from './change-requests-cache';

/** A change as sent: core's `ChangeInput` is the parsed type, whose defaulted `comment` is required. */
export type ChangeBody = z.input<typeof changeInputSchema>;

export type AddChangeInput = { projectKey: string; id: string; change: ChangeBody };
export type RemoveChangeInput = { projectKey: string; id: string; changeId: string };
/** Which side each part in conflict keeps, by `conflicts[].part`. */
export type RebaseKeep = RebaseInput['keep'];
export type RebaseChangeInput = RemoveChangeInput & { keep: RebaseKeep };

/**
 * POST …/change-requests/{id}/changes: a control's new state (the body of PUT /api/v1/feature-controls
 * with `kind: "control"`) or a restore, to be written when the request is applied. A later change of
 * the same control replaces the earlier one. The caller words failures.
 */
export function addChange({ projectKey, id, change }: AddChangeInput): Promise<ChangeRequest> {
  return apiClient.post(changeRequestsApi(projectKey, id, 'changes'), change, {
    schema: changeRequestSchema,
    notifyErrors: false,
  });
}

/** DELETE …/change-requests/{id}/changes/{changeId}: the request without that change. */
export function removeChange({ projectKey, id, changeId }: RemoveChangeInput): Promise<ChangeRequest> {
  return apiClient.delete(changeRequestsApi(projectKey, id, 'changes', changeId), {
    schema: changeRequestSchema,
    notifyErrors: false,
  });
}

/**
 * POST …/change-requests/{id}/changes/{changeId}/rebase {keep}: the change drafted again on the live
 * version, its parts that merge merged and each part in conflict keeping the side chosen in `keep`.
 * Like any edit, the request goes back to review. A part in conflict left unchosen is a 400 whose
 * title names it; the caller words failures.
 */
export function rebaseChange({ projectKey, id, changeId, keep }: RebaseChangeInput): Promise<ChangeRequest> {
  const body: RebaseInput = { keep };
  return apiClient.post(changeRequestsApi(projectKey, id, 'changes', changeId, 'rebase'), body, {
    schema: changeRequestSchema,
    notifyErrors: false,
  });
}

export function useAddChange() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: addChange, onSuccess: (request) => void changed(request) });
}

export function useRemoveChange() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: removeChange, onSuccess: (request) => void changed(request) });
}

export function useRebaseChange() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: rebaseChange, onSuccess: (request) => void changed(request) });
}
