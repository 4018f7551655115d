import { useState } from 'react';
import { Button, Group, MultiSelect, Stack, Text } from '@mantine/core';
import type { Role } from '@vexil/core';
import { FormFailure, formFailureMessage } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { fullName } from '../../../lib/names';
import { notifySuccess } from '../../../lib/notify';
import { useSetRoleMembers } from '../../../entities/roles/api/set-role-members';
import { useTeamMembers } from '../../../entities/team/api/get-team-members';

export const membersSavedMessage = (role: string) => `Members of ${role} saved.`;

/**
 * Who holds a role: a multi-select of the organisation's active members (pending invitations cannot
 * hold one). The change applies from each member's next request.
 */
export function RoleMembersForm({ role }: { role: Role }) {
  const team = useTeamMembers();
  const setMembers = useSetRoleMembers();
  const [chosen, setChosen] = useState<string[]>(role.members.map((member) => member.id));
  const [failure, setFailure] = useState<string | null>(null);

  const active = (team.data ?? []).filter((member) => member.activated);
  const options = [
    ...active.map((member) => ({ value: member.id, label: `${fullName(member)} (${member.email})` })),
    // Holders the team list has not (yet) shown stay choosable under their name.
    ...role.members
      .filter((member) => !active.some((candidate) => candidate.id === member.id))
      .map((member) => ({ value: member.id, label: member.name })),
  ];

  const save = async () => {
    setFailure(null);
    try {
      await setMembers.mutateAsync({ roleId: role.id, userIds: chosen });
    } catch (error) {
      setFailure(formFailureMessage(error));
      return;
    }
    notifySuccess(membersSavedMessage(role.name));
    closeModal();
  };

  return (
    <form
      aria-label={`Members of ${role.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        <FormFailure message={failure ?? (team.isError ? formFailureMessage(team.error) : null)} />
        <Text size="sm" c="dimmed">
          Members holding {role.name} get its grants on top of their built-in role, from their next request.
        </Text>
        <MultiSelect
          label="Members"
          data-autofocus
          placeholder={team.isPending ? 'Loading members…' : chosen.length ? undefined : 'Choose members'}
          data={options}
          value={chosen}
          onChange={setChosen}
          disabled={team.isPending}
          searchable
          nothingFoundMessage="No active member matches"
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={setMembers.isPending} disabled={team.isPending}>
            Save Members
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the role's members modal on top of the modal stack. */
export function openRoleMembersForm(role: Role): string {
  return showModal({
    title: `Members of ${role.name}`,
    size: 'lg',
    children: <RoleMembersForm role={role} />,
  });
}
