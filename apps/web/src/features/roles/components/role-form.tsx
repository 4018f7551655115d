import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { roleForm, type Role, type RoleInput } from '@vexil/core';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { useSaveRole } from '../../../entities/roles/api/save-role';
import { GrantFields, NEW_GRANT, type RoleValues } from './grant-fields';

export const roleSavedMessage = (name: string) => `${name} saved.`;

export type RoleFormProps = {
  /** The role to change; none to create one. */
  role?: Role;
  /**
   * The organisation's projects to choose from (the session's: a modal sits outside the session's
   * context, so the screen passes them).
   */
  projects: readonly { id: string; name: string }[];
};

/** A role's values for the form; projects no longer there are left out of its grants. */
function valuesOf(role: Role | undefined, live: ReadonlySet<string>): RoleValues {
  if (!role) return { name: '', description: '', grants: [NEW_GRANT] };
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    grants: role.grants.map((grant) => ({
      ...grant,
      projects: grant.projects === null ? null : grant.projects.filter((id) => live.has(id)),
    })),
  };
}

/**
 * The Update Role modal (docs/product.md §2, §6): a name (required, unique in the organisation), a
 * description and grants, added and removed; each adds the chosen actions on the chosen resources,
 * within the chosen projects and environments, to the rights of the members' built-in role. A refusal
 * shows in the form.
 */
export function RoleFormModal({ role, projects }: RoleFormProps) {
  const save = useSaveRole();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RoleValues, unknown, RoleInput>({
    resolver: zodResolver(roleForm),
    defaultValues: valuesOf(role, new Set(projects.map((project) => project.id))),
  });
  const grants = useFieldArray({ control, name: 'grants' });

  const onSubmit = handleSubmit(async (values: RoleInput) => {
    setFailure(null);
    let saved: Role;
    try {
      saved = await save.mutateAsync(values);
    } catch (error) {
      applyFieldErrors(error, ['name', 'description'] as const, setError);
      setFailure(formFailureMessage(error));
      return;
    }
    notifySuccess(roleSavedMessage(saved.name));
    closeModal();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={role ? 'Update Role' : 'New Role'}>
      <Stack gap="md">
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              required
              data-autofocus
              autoComplete="off"
              placeholder="Release managers"
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="description"
          render={({ field, fieldState }) => (
            <Textarea
              label="Description"
              autosize
              minRows={2}
              maxRows={5}
              placeholder="Who holds it and why"
              error={fieldState.error?.message}
              {...field}
              value={field.value ?? ''}
            />
          )}
        />
        <Stack gap={4}>
          <Title order={3} fz="md">
            Grants
          </Title>
          <Text size="sm" c="dimmed">
            Each grant adds rights to the built-in role of the members who hold this role: the chosen actions
            on the chosen resources, within the chosen projects and environments. Reading needs no grant.
          </Text>
        </Stack>
        {grants.fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            This role grants nothing yet.
          </Text>
        ) : null}
        {grants.fields.map((grant, index) => (
          <GrantFields
            key={grant.id}
            control={control}
            errors={errors}
            index={index}
            projects={projects}
            onRemove={() => grants.remove(index)}
          />
        ))}
        <Group>
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={() => grants.append(NEW_GRANT)}
          >
            Add grant
          </Button>
        </Group>
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {role ? 'Update Role' : 'Create Role'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the Update Role modal (New Role without a role) on top of the modal stack. */
export function openRoleForm(props: RoleFormProps): string {
  return showModal({
    title: props.role ? 'Update Role' : 'New Role',
    size: 'xl',
    children: <RoleFormModal {...props} />,
  });
}
