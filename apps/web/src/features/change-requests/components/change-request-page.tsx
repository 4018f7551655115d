import { Grid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ChangeRequest } from '@vexil/core';
import { isApiError } from '../../../lib/api-client';
import { errorReason, LoadError } from '../../../components/load-error';
import { NotFound } from '../../../components/not-found';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useChangeRequest } from '../../../entities/change-requests/api/get-change-request';
import {
  useRebaseChange,
  useRemoveChange,
  type RebaseKeep,
} from '../../../entities/change-requests/api/change-request-changes';
import { ChangeCard } from './change-card';
import { ChangeRequestActions } from './change-request-actions';
import { ChangeRequestHeader } from './change-request-header';
import { ChangeRequestPreview } from './change-request-preview';
import { ChangeRequestTimeline } from './change-request-timeline';

export const CHANGE_REMOVED_MESSAGE = 'Change removed.';
export const BROUGHT_UP_TO_DATE_MESSAGE = 'Brought up to date.';
export const BACK_IN_REVIEW_MESSAGE = 'Brought up to date: the request is back in review.';
export const NOT_BROUGHT_UP_TO_DATE_MESSAGE = 'The change was not brought up to date.';

function PageSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading the change request">
      <Skeleton height={36} width="50%" />
      <Skeleton height={18} width="70%" />
      <Skeleton height={36} width="60%" />
      <Skeleton height={140} />
      <Skeleton height={140} />
    </Stack>
  );
}

/**
 * One change request (docs/adr/0024-change-requests.md): its header, the buttons the user may press
 * now (each other one disabled with its reason), each change with what applying it does and its
 * conflicts, a preview for a user, and the timeline with the comment box.
 */
export function ChangeRequestPage({
  projectKey,
  changeRequestId,
}: {
  projectKey: string;
  changeRequestId: string;
}) {
  const query = useChangeRequest(projectKey, changeRequestId);
  const remove = useRemoveChange();
  const rebase = useRebaseChange();
  const request = query.data;

  if (!request) {
    if (query.isError) {
      if (isApiError(query.error) && query.error.status === 404) return <NotFound />;
      return (
        <LoadError
          title="We could not load the change request."
          error={query.error}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      );
    }
    return <PageSkeleton />;
  }

  const editable = request.actions.edit?.allowed === true;
  const removeChange = async (changeId: string) => {
    try {
      await remove.mutateAsync({ projectKey, id: request.id, changeId });
    } catch (error) {
      notifyError(errorReason(error) || 'The change was not removed.');
      void query.refetch();
      return;
    }
    notifySuccess(CHANGE_REMOVED_MESSAGE);
  };
  const bringUpToDate = async (changeId: string, keep: RebaseKeep): Promise<boolean> => {
    let answer: ChangeRequest;
    try {
      answer = await rebase.mutateAsync({ projectKey, id: request.id, changeId, keep });
    } catch (error) {
      notifyError(errorReason(error) || NOT_BROUGHT_UP_TO_DATE_MESSAGE);
      // A refusal means the page is out of date (a new conflict, or no longer the user's to edit).
      void query.refetch();
      return false;
    }
    // An edit sends an open request back to review, unless its approvals still count.
    const backInReview = answer.state !== request.state && answer.state === 'in-review';
    notifySuccess(backInReview ? BACK_IN_REVIEW_MESSAGE : BROUGHT_UP_TO_DATE_MESSAGE);
    return true;
  };

  return (
    <Stack gap="lg">
      <ChangeRequestHeader request={request} />
      <ChangeRequestActions request={request} onRefused={() => void query.refetch()} />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md" component="section" aria-labelledby="change-request-changes">
            <Title order={2} fz="lg" id="change-request-changes">
              Changes ({request.changes.length})
            </Title>
            {request.changes.length === 0 ? (
              <Text size="sm" c="dimmed">
                No changes yet. Save a feature’s targeting or switch in {request.environmentName}, a feature’s
                settings or a segment there, then choose “Add to change request”.
              </Text>
            ) : (
              <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Changes">
                {request.changes.map((change) => (
                  <ChangeCard
                    key={change.id}
                    change={change}
                    projectKey={projectKey}
                    environmentKey={request.environmentKey}
                    editable={editable}
                    removing={remove.isPending && remove.variables?.changeId === change.id}
                    onRemove={() => void removeChange(change.id)}
                    rebasing={rebase.isPending && rebase.variables?.changeId === change.id}
                    onBringUpToDate={(keep) => bringUpToDate(change.id, keep)}
                  />
                ))}
              </Stack>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="xl">
            <ChangeRequestPreview projectKey={projectKey} id={request.id} />
            <ChangeRequestTimeline request={request} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
