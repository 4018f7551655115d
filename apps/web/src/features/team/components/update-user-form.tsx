import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import {
  ASSIGNABLE_AUTHORITIES,
  AUTHORITY_LABELS,
  OWN_ROLE_MESSAGE,
  userForm,
  type TeamMember,
  type UserForm,
} from '@vexil/core';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { fullName } from '../../../lib/names';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateTeamMember } from '../../../entities/team/api/update-team-member';

const ROLE_OPTIONS = ASSIGNABLE_AUTHORITIES.map((authority) => ({
  value: authority,
  label: AUTHORITY_LABELS[authority],
}));

export type UpdateUserFormProps = {
  member: TeamMember;
  /** The signed-in user's id: their own role cannot be changed. */
  selfId: string;
};

/**
 * docs/product.md §2 "Update User", §5: first and last name required ("First name is required",
 * "Last name is required"), a role for others; the e-mail is shown but cannot be changed, and nobody
 * changes their own role. A refusal shows in the form.
 */
export function UpdateUserForm({ member, selfId }: UpdateUserFormProps) {
  const self = member.id === selfId;
  const update = useUpdateTeamMember(selfId);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm({
    resolver: zodResolver(userForm),
    defaultValues: {
      id: member.id,
      firstName: member.firstName,
      lastName: member.lastName,
      // A member holding no role the dashboard grants starts without one: choosing is required.
      authority: (ASSIGNABLE_AUTHORITIES as readonly string[]).includes(member.authority ?? '')
        ? (member.authority as UserForm['authority'])
        : (undefined as unknown as UserForm['authority']),
    },
  });

  const onSubmit = handleSubmit(async (values: UserForm) => {
    setFailure(null);
    let saved: TeamMember;
    try {
      saved = await update.mutateAsync(values);
    } catch (error) {
      applyFieldErrors(error, ['firstName', 'lastName', 'authority'] as const, setError);
      setFailure(formFailureMessage(error));
      return;
    }
    notifySuccess(`${fullName(saved)} saved.`);
    closeModal();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Update User">
      <Stack gap="md">
        <FormFailure message={failure} />
        <TextInput
          label="Email"
          value={member.email}
          readOnly
          description="The e-mail address cannot be changed."
        />
        <Controller
          control={control}
          name="firstName"
          render={({ field, fieldState }) => (
            <TextInput
              label="First name"
              required
              data-autofocus
              autoComplete="off"
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="lastName"
          render={({ field, fieldState }) => (
            <TextInput
              label="Last name"
              required
              autoComplete="off"
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="authority"
          render={({ field, fieldState }) => (
            <Select
              label="Role"
              required={!self}
              data={ROLE_OPTIONS}
              allowDeselect={false}
              disabled={self}
              description={self ? OWN_ROLE_MESSAGE : undefined}
              error={fieldState.error?.message}
              comboboxProps={{ withinPortal: true }}
              name={field.name}
              value={field.value ?? null}
              onChange={(value) => field.onChange(value ?? undefined)}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Update User
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the Update User modal on top of the modal stack. */
export function openUpdateUserForm(props: UpdateUserFormProps): string {
  return showModal({ title: 'Update User', children: <UpdateUserForm {...props} /> });
}
