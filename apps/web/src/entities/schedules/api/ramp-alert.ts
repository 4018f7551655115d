import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rampAlertSchema, type RampAlert, type RampAlertInput } from '@vexil/core';
import { apiClient, isApiError } from '../../../lib/api-client';
import { schedulesApi } from './schedules-cache';
import { scheduleKeys } from './query-keys';

/*
 * A ramp's alert URL (docs/adr/0026-guarded-rollouts.md): the URL any alerting tool posts to, to roll
 * the ramp back or pause it. Made, read and removed by members who may change the ramp's targeting;
 * the URL itself comes only in the answer that made it. The modal shows every failure in place.
 */

export type RampAlertRef = { projectKey: string; id: string };

const alertApi = (projectKey: string, id: string) => schedulesApi(projectKey, id, 'alert');

/**
 * GET …/schedules/{id}/alert → what an alert does, who made the URL and when, when the last alert came
 * and what it did; never the URL. A ramp without one is 404, which is null here: a state, not a
 * failure. 403 without the rights to change the ramp.
 */
export async function getRampAlert(
  projectKey: string,
  id: string,
  signal?: AbortSignal,
): Promise<RampAlert | null> {
  try {
    return await apiClient.get(alertApi(projectKey, id), {
      schema: rampAlertSchema,
      signal,
      notifyErrors: false,
    });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export const rampAlertQueryOptions = (projectKey: string, id: string) =>
  queryOptions({
    queryKey: scheduleKeys.alert(projectKey, id),
    queryFn: ({ signal }) => getRampAlert(projectKey, id, signal),
  });

/** The ramp's alert URL as stored (null for none); asked only where the member may change the ramp. */
export function useRampAlert(projectKey: string, id: string) {
  return useQuery(rampAlertQueryOptions(projectKey, id));
}

export type MakeRampAlertInput = RampAlertRef & RampAlertInput;

/**
 * POST …/schedules/{id}/alert {action} → 201, the alert URL with `url`, this once. Posting again
 * replaces it: the old URL stops working. 400 for a schedule that is not a ramp, 403 without the
 * rights to change the ramp, 404 for an unknown one.
 */
export function makeRampAlert({ projectKey, id, action }: MakeRampAlertInput): Promise<RampAlert> {
  return apiClient.post(
    alertApi(projectKey, id),
    { action: action ?? 'rollback' },
    { schema: rampAlertSchema, notifyErrors: false },
  );
}

/** Makes or replaces the URL; the cache keeps what GET would answer, without the URL. */
export function useMakeRampAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeRampAlert,
    onSuccess: ({ url: _shownOnce, ...stored }, { projectKey, id }) =>
      queryClient.setQueryData<RampAlert | null>(scheduleKeys.alert(projectKey, id), stored),
  });
}

/** DELETE …/schedules/{id}/alert → 204: the URL stops working. 404 when it has gone already. */
export async function removeRampAlert({ projectKey, id }: RampAlertRef): Promise<void> {
  await apiClient.delete(alertApi(projectKey, id), { notifyErrors: false });
}

export function useRemoveRampAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeRampAlert,
    onSuccess: (_, { projectKey, id }) =>
      queryClient.setQueryData<RampAlert | null>(scheduleKeys.alert(projectKey, id), null),
    // Removed elsewhere meanwhile (404), or refused: ask again what is there.
    onError: (_, { projectKey, id }) =>
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.alert(projectKey, id) }),
  });
}
