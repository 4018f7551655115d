import { Button, Group } from '@mantine/core';
import { IconMailForward, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import {
  INVITATION_CANCELLED_MESSAGE,
  REMOVE_SELF_MESSAGE,
  USER_DELETE_FAILED_MESSAGE,
  USER_REMOVED_MESSAGE,
  type TeamMember,
} from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { errorReason } from '../../../components/load-error';
import { confirm, showModal } from '../../../lib/modals';
import { fullName } from '../../../lib/names';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useRemoveTeamMember } from '../../../entities/team/api/remove-team-member';
import { useSendInvitations } from '../../../entities/team/api/send-invitations';
import { InvitationLinks } from './invite-users-form';
import { openUpdateUserForm } from './update-user-form';

/** "There was an error deleting the user", with the server's reason when it gave one. */
function notifyDeleteFailed(error: unknown): void {
  const reason = errorReason(error);
  if (reason) notifyError(reason, { title: USER_DELETE_FAILED_MESSAGE });
  else notifyError(USER_DELETE_FAILED_MESSAGE);
}

/**
 * docs/product.md §2 "Team Management": Edit Member (and Remove) for an active member, Cancel Invite
 * (and Resend) for a pending one; removing asks first. The signed-in user cannot remove themselves.
 * `wrap`: on a phone's card the buttons wrap instead of overflowing.
 */
export function MemberActions({
  member,
  selfId,
  wrap = false,
}: {
  member: TeamMember;
  selfId: string;
  wrap?: boolean;
}) {
  const remove = useRemoveTeamMember();
  const resend = useSendInvitations();
  const name = fullName(member);
  const self = member.id === selfId;

  const onRemove = async () => {
    const confirmed = member.activated
      ? await confirm({
          title: 'Remove Member',
          message: `Remove ${name} (${member.email}) from the organisation? They are signed out at once, their access tokens stop working, and single sign-on will not let them back in unless you invite them again.`,
          confirmLabel: 'Remove Member',
          danger: true,
        })
      : await confirm({
          title: 'Cancel Invite',
          message: `Cancel the invitation of ${member.email}? Its link stops working.`,
          confirmLabel: 'Cancel Invite',
          cancelLabel: 'Keep Invitation',
          danger: true,
        });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(member.id);
    } catch (error) {
      notifyDeleteFailed(error);
      return;
    }
    notifySuccess(member.activated ? USER_REMOVED_MESSAGE : INVITATION_CANCELLED_MESSAGE);
  };

  const onResend = async () => {
    try {
      const result = await resend.mutateAsync([
        { email: member.email, firstName: member.firstName, lastName: member.lastName },
      ]);
      if (result.mail === 'sent') notifySuccess(`Invitation sent again to ${member.email}.`);
      else showModal({ title: 'Invitation Link', size: 'lg', children: <InvitationLinks result={result} /> });
    } catch (error) {
      notifyError(errorReason(error) || 'The invitation could not be sent again.');
    }
  };

  return (
    <Group gap="xs" justify={wrap ? 'flex-start' : 'flex-end'} wrap={wrap ? 'wrap' : 'nowrap'}>
      {member.activated ? (
        <>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} aria-hidden="true" />}
            aria-label={`Edit Member ${member.email}`}
            onClick={() => openUpdateUserForm({ member, selfId })}
          >
            Edit Member
          </Button>
          <DisabledReason denial={self ? REMOVE_SELF_MESSAGE : null}>
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconTrash size={14} aria-hidden="true" />}
              aria-label={`Remove ${member.email}`}
              disabled={self}
              loading={remove.isPending}
              onClick={() => void onRemove()}
            >
              Remove
            </Button>
          </DisabledReason>
        </>
      ) : (
        <>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconMailForward size={14} aria-hidden="true" />}
            aria-label={`Resend Invite to ${member.email}`}
            loading={resend.isPending}
            onClick={() => void onResend()}
          >
            Resend
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconX size={14} aria-hidden="true" />}
            aria-label={`Cancel Invite to ${member.email}`}
            loading={remove.isPending}
            onClick={() => void onRemove()}
          >
            Cancel Invite
          </Button>
        </>
      )}
    </Group>
  );
}
