import { Alert, Text } from '@mantine/core';
import { IconGitPullRequest } from '@tabler/icons-react';

/**
 * Why a save was refused for want of a change request (409 `change_request_required`), with the way
 * on: the edit is kept, and the form's save button now adds it to a change request.
 */
export function ChangeRequestOffer({ reason }: { reason: string }) {
  return (
    <Alert
      color="blue"
      variant="light"
      role="status"
      icon={<IconGitPullRequest size={18} aria-hidden />}
      title="This change needs a change request"
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {reason} Your edit is kept: choose “Add to change request” below to have it reviewed.
      </Text>
    </Alert>
  );
}
