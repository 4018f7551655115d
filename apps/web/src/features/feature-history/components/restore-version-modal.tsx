import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MAX_LENGTH, productionWarning, tooLongMessage } from '@vexil/core';
import { hasErrorCode, isApiError, type ApiError } from '../../../lib/api-client';
import { useAddToChangeRequest } from '../../../entities/change-requests/hooks/use-add-to-change-request';
import { notifySuccess } from '../../../lib/notify';
import { errorReason } from '../../../components/load-error';
import { getVersionDiff, type VersionedPart } from '../../../entities/features/api/get-versions';
import { featureKeys } from '../../../entities/features/api/query-keys';
import { useRestoreVersion } from '../../../entities/features/api/restore-version';

/** What is being restored: one version of one part, onto the newest the page showed. */
export type RestoreTarget = { part: VersionedPart; number: number; currentVersion: number; partName: string };

export const STALE_RESTORE_MESSAGE =
  'Someone changed this since the history was loaded. The history now shows the latest versions: check them, then restore again.';

export function restoredMessage(number: number): string {
  return `Version ${number} restored.`;
}

/** The title of a draft made for a restore refused because the environment asks for change requests. */
export function restoreRequestTitle(number: number, partName: string): string {
  return `Restore version ${number} of ${partName}`;
}

/**
 * Restore, previewed: what bringing the version forward changes (the diff from the newest version to
 * it, in words), the production warning in production, an optional comment, then Restore. A refusal
 * is shown in the dialog, which stays open; a stale history is reloaded.
 */
export function RestoreVersionModal({
  target,
  featureName,
  production,
  onClose,
  onStale,
}: {
  target: RestoreTarget;
  featureName: string;
  /** The production environment's name when the control restored is in one; null otherwise. */
  production: string | null;
  onClose: () => void;
  onStale: () => void;
}) {
  const { part, number, currentVersion } = target;
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  // Set when the restore was refused because its environment asks for change requests.
  const [needsRequest, setNeedsRequest] = useState<ApiError | null>(null);
  const restore = useRestoreVersion();
  const toRequest = useAddToChangeRequest();
  const preview = useQuery({
    queryKey: featureKeys.versionDiff(
      part.projectKey,
      part.featureKey,
      part.environmentKey,
      currentVersion,
      number,
    ),
    queryFn: ({ signal }) => getVersionDiff(part, currentVersion, number, signal),
    staleTime: Infinity,
  });
  const tooLong = comment.length > MAX_LENGTH.comment;

  const submit = async () => {
    setFailure(null);
    try {
      await restore.mutateAsync({ ...part, number, currentVersion, comment: comment.trim() });
    } catch (error) {
      if (hasErrorCode(error, 'stale_write')) {
        setFailure(STALE_RESTORE_MESSAGE);
        onStale();
      } else if (hasErrorCode(error, 'change_request_required') && isApiError(error)) {
        setNeedsRequest(error);
        setFailure(`${error.title} Add this restore to a change request to have it reviewed.`);
      } else setFailure(errorReason(error) || 'The version was not restored. Please try again.');
      return;
    }
    notifySuccess(restoredMessage(number));
    onClose();
  };

  /** The refused restore, put into the change request the refusal named (or a new draft there). */
  const addToRequest = async (refusal: ApiError) => {
    setFailure(null);
    try {
      await toRequest.add({
        projectKey: part.projectKey,
        environmentKey: refusal.environmentKey ?? part.environmentKey ?? '',
        title: restoreRequestTitle(number, target.partName),
        change: {
          kind: 'restore',
          of: part.environmentKey === null ? 'settings' : 'targeting',
          featureKey: part.featureKey,
          number,
          currentVersion,
          comment: comment.trim(),
        },
        changeRequestId: refusal.changeRequestId ?? null,
      });
    } catch (error) {
      setFailure(errorReason(error) || 'The restore was not added to a change request. Please try again.');
      return;
    }
    onClose();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Restore version ${number} of ${target.partName}?`}
      centered
      size="lg"
    >
      <Stack gap="md">
        <Text size="sm">
          Restoring adds a new version equal to version {number}. Nothing is lost: every version stays in the
          history.
        </Text>
        <div>
          <Text size="sm" fw={600} mb={4}>
            What changes
          </Text>
          {preview.isPending ? (
            <Skeleton height={48} aria-label="Loading what changes" />
          ) : preview.isError ? (
            <Text size="sm" c="red">
              {isApiError(preview.error) && preview.error.title
                ? preview.error.title
                : 'What this restore changes could not be loaded.'}
            </Text>
          ) : preview.data.changes.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nothing: this is already what version {number} was.
            </Text>
          ) : (
            <List size="sm" spacing={4} aria-label="What changes">
              {preview.data.changes.map((change, index) => (
                <List.Item key={index}>{change}</List.Item>
              ))}
            </List>
          )}
        </div>
        {production ? (
          <Alert color="orange" variant="light" title="Production environment">
            {productionWarning(featureName, production)}
          </Alert>
        ) : null}
        <TextInput
          label="Comment"
          description="Optional: why, kept with the new version."
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          error={tooLong ? tooLongMessage(MAX_LENGTH.comment) : undefined}
          data-autofocus
        />
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          {needsRequest ? (
            <Button
              loading={toRequest.isPending}
              disabled={tooLong}
              onClick={() => void addToRequest(needsRequest)}
            >
              Add to change request
            </Button>
          ) : (
            <Button
              color={production ? 'orange' : undefined}
              loading={restore.isPending}
              disabled={tooLong}
              onClick={() => void submit()}
            >
              Restore version {number}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
