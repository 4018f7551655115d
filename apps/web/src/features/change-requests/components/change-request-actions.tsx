import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import {
  IconBan,
  IconCheck,
  IconMessageCircle,
  IconRocket,
  IconSend,
  IconX,
  type TablerIcon,
} from '@tabler/icons-react';
import type { ChangeRequest, ChangeRequestButton } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { errorReason } from '../../../components/load-error';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess, notifyWarning } from '../../../lib/notify';
import {
  useMoveChangeRequest,
  useReviewChangeRequest,
} from '../../../entities/change-requests/api/change-request-actions';
import { openReviewCommentForm } from './review-comment-form';

export const ACTION_FAILED_MESSAGE = 'The change request was not updated.';

type ActionButton = Exclude<ChangeRequestButton, 'edit'>;

const BUTTONS: readonly {
  button: ActionButton;
  label: string;
  icon: TablerIcon;
  variant: 'filled' | 'light' | 'default';
  color?: string;
}[] = [
  { button: 'submit', label: 'Submit for review', icon: IconSend, variant: 'filled' },
  { button: 'approve', label: 'Approve', icon: IconCheck, variant: 'filled', color: 'teal' },
  { button: 'request-changes', label: 'Request changes', icon: IconMessageCircle, variant: 'default' },
  { button: 'reject', label: 'Reject', icon: IconX, variant: 'light', color: 'red' },
  { button: 'apply', label: 'Apply', icon: IconRocket, variant: 'filled' },
  { button: 'cancel', label: 'Cancel request', icon: IconBan, variant: 'default' },
];

/** What the toast says once the server answered an action with the request as it now stands. */
function outcome(button: ActionButton, request: ChangeRequest): string {
  if (request.state === 'applied') return 'Change request applied.';
  switch (button) {
    case 'submit':
      return request.state === 'approved' ? 'Submitted, and already approved.' : 'Submitted for review.';
    case 'approve':
      return request.state === 'approved' ? 'Approved: the change request can be applied.' : 'Approved.';
    case 'request-changes':
      return 'Changes requested.';
    case 'reject':
      return 'Change request rejected.';
    case 'cancel':
      return 'Change request cancelled.';
    case 'apply':
      return 'Change request updated.';
  }
}

/**
 * Submit, Approve, Request changes, Reject, Apply and Cancel, as the server's `actions` allow them for
 * the user now; each one it does not is disabled with its reason. Request changes and Reject ask for
 * a comment, Cancel for a confirmation. A closed request shows why instead of buttons.
 */
export function ChangeRequestActions({
  request,
  onRefused,
}: {
  request: ChangeRequest;
  onRefused: () => void;
}) {
  const move = useMoveChangeRequest();
  const review = useReviewChangeRequest();
  const where = { projectKey: request.projectKey, id: request.id };
  const pending = move.isPending || review.isPending;
  const [pressed, setPressed] = useState<ActionButton | null>(null);

  const run = async (button: ActionButton, call: () => Promise<ChangeRequest>): Promise<boolean> => {
    let answer: ChangeRequest;
    try {
      answer = await call();
    } catch (error) {
      notifyError(errorReason(error) || ACTION_FAILED_MESSAGE);
      // A refusal means the page is out of date: what the buttons allow is asked again.
      onRefused();
      return false;
    }
    if (answer.state === 'suspended') {
      notifyWarning(`The change request was suspended. ${answer.suspendedReason ?? ''}`.trim(), {
        persistent: true,
      });
    } else notifySuccess(outcome(button, answer));
    return true;
  };

  const press = async (button: ActionButton) => {
    setPressed(button);
    switch (button) {
      case 'submit':
      case 'apply':
        await run(button, () => move.mutateAsync({ ...where, move: button }));
        return;
      case 'approve':
        await run(button, () =>
          review.mutateAsync({ ...where, review: { decision: 'approve', comment: '' } }),
        );
        return;
      case 'request-changes':
      case 'reject':
        openReviewCommentForm(button, (comment) =>
          run(button, () => review.mutateAsync({ ...where, review: { decision: button, comment } })),
        );
        return;
      case 'cancel': {
        const confirmed = await confirm({
          title: 'Cancel change request',
          message: `Cancel “${request.title}”? Its changes will not be applied, and it cannot be reopened.`,
          confirmLabel: 'Cancel request',
          cancelLabel: 'Keep it',
          danger: true,
        });
        if (confirmed) await run(button, () => move.mutateAsync({ ...where, move: 'cancel' }));
      }
    }
  };

  const closed = ['applied', 'rejected', 'cancelled'].includes(request.state);
  if (closed) {
    return (
      <Text size="sm" c="dimmed">
        {request.actions.apply?.reason ?? 'This change request is closed.'}
      </Text>
    );
  }

  return (
    <Group gap="sm" role="group" aria-label="Change request actions">
      {BUTTONS.map(({ button, label, icon: Icon, variant, color }) => {
        const state = request.actions[button];
        const denial = state?.allowed ? null : (state?.reason ?? 'Not available now.');
        return (
          <DisabledReason key={button} denial={denial}>
            <Button
              variant={variant}
              color={color}
              leftSection={<Icon size={16} aria-hidden="true" />}
              disabled={denial !== null || pending}
              loading={pending && pressed === button}
              onClick={() => void press(button)}
            >
              {label}
            </Button>
          </DisabledReason>
        );
      })}
    </Group>
  );
}
