import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { changeRequestSchema, type ChangeRequest, type CommentInput, type ReviewInput } from '@vexil/core';
import { changeRequestsApi, useChangeRequestChanged } from './change-requests-cache';

/** The moves of a request that take no body. */
export type ChangeRequestMove = 'submit' | 'apply' | 'cancel';

export type MoveChangeRequestInput = { projectKey: string; id: string; move: ChangeRequestMove };
export type ReviewChangeRequestInput = { projectKey: string; id: string; review: ReviewInput };
export type CommentChangeRequestInput = { projectKey: string; id: string; comment: CommentInput };

const options = { schema: changeRequestSchema, notifyErrors: false } as const;

/**
 * POST …/change-requests/{id}/submit, /apply or /cancel → the request as it now stands (an apply that
 * meets a conflict answers it suspended). A move the rules refuse is 409 `conflict` whose title is the
 * refusal's sentence; the page shows it.
 */
export function moveChangeRequest({ projectKey, id, move }: MoveChangeRequestInput): Promise<ChangeRequest> {
  return apiClient.post(changeRequestsApi(projectKey, id, move), undefined, options);
}

/** POST …/change-requests/{id}/reviews {decision, comment?}: approve, request changes or reject. */
export function reviewChangeRequest({
  projectKey,
  id,
  review,
}: ReviewChangeRequestInput): Promise<ChangeRequest> {
  return apiClient.post(changeRequestsApi(projectKey, id, 'reviews'), review, options);
}

/** POST …/change-requests/{id}/comments {text}. */
export function commentChangeRequest({
  projectKey,
  id,
  comment,
}: CommentChangeRequestInput): Promise<ChangeRequest> {
  return apiClient.post(changeRequestsApi(projectKey, id, 'comments'), comment, options);
}

export function useMoveChangeRequest() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: moveChangeRequest, onSuccess: (request) => void changed(request) });
}

export function useReviewChangeRequest() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: reviewChangeRequest, onSuccess: (request) => void changed(request) });
}

export function useCommentChangeRequest() {
  const changed = useChangeRequestChanged();
  return useMutation({ mutationFn: commentChangeRequest, onSuccess: (request) => void changed(request) });
}
