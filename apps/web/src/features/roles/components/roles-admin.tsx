import type { ReactNode } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import {
  ROLE_DELETED_MESSAGE,
  ROLE_DELETE_FAILED_MESSAGE,
  isOrganisationAdmin,
  type ProjectSummary,
  type Role,
} from '@vexil/core';
import { ROLES_ADMINS_ONLY } from '@vexil/core/messages';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDeleteRole } from '../../../entities/roles/api/delete-role';
import { useAuthorities, useRoles } from '../../../entities/roles/api/get-roles';
import { openRoleForm } from './role-form';
import { openRoleMembersForm } from './role-members-form';
import { BuiltInRoles, RolesList } from './roles-list';

export const NO_ROLES_MESSAGE = 'No custom roles yet.';

function NewRoleButton({ projects }: { projects: ProjectSummary[] }) {
  return (
    <Button
      leftSection={<IconPlus size={16} aria-hidden="true" />}
      onClick={() => openRoleForm({ projects })}
    >
      New Role
    </Button>
  );
}

/** "There was an error deleting the role", with the server's reason (such as who holds it). */
function notifyDeleteFailed(error: unknown): void {
  const reason = errorReason(error);
  if (reason) notifyError(reason, { title: ROLE_DELETE_FAILED_MESSAGE });
  else notifyError(ROLE_DELETE_FAILED_MESSAGE);
}

function RolesScreen() {
  const { projects } = useSession();
  const authorities = useAuthorities();
  const roles = useRoles();
  const deleteRole = useDeleteRole();
  const names = new Map(projects.map((project) => [project.id, project.name]));

  const removeRole = async (role: Role) => {
    const confirmed = await confirm({
      title: 'Delete Role',
      message: `Delete the role "${role.name}"? This cannot be undone.`,
      confirmLabel: 'Delete role',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteRole.mutateAsync(role.id);
    } catch (error) {
      notifyDeleteFailed(error);
      return;
    }
    notifySuccess(ROLE_DELETED_MESSAGE);
  };

  let builtIn: ReactNode;
  if (authorities.isError && !authorities.data)
    builtIn = (
      <LoadError
        title="We could not load the built-in roles."
        error={authorities.error}
        retrying={authorities.isFetching}
        onRetry={() => void authorities.refetch()}
      />
    );
  else builtIn = <BuiltInRoles authorities={authorities.data ?? null} />;

  let custom: ReactNode;
  if (roles.isError && !roles.data)
    custom = (
      <LoadError
        title="We could not load the roles."
        error={roles.error}
        retrying={roles.isFetching}
        onRetry={() => void roles.refetch()}
      />
    );
  else if (roles.data && roles.data.length === 0)
    custom = (
      <EmptyState py={32} maw={520}>
        <Text fw={500}>{NO_ROLES_MESSAGE}</Text>
        <Text c="dimmed" size="sm">
          A custom role lets some members do more than their built-in role allows, such as switching features
          outside production in one project, without making them editors everywhere.
        </Text>
        <NewRoleButton projects={projects} />
      </EmptyState>
    );
  else
    custom = (
      <RolesList
        roles={roles.data ?? null}
        projectName={(id) => names.get(id)}
        deletingId={deleteRole.isPending ? (deleteRole.variables ?? null) : null}
        onMembers={(role) => openRoleMembersForm(role)}
        onEdit={(role) => openRoleForm({ role, projects })}
        onDelete={(role) => void removeRole(role)}
      />
    );

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4} maw={720}>
          <Title order={2}>Role Management</Title>
          <Text c="dimmed" size="sm">
            Every member holds one built-in role. Custom roles add rights to it: give one to the members who
            need to do more in some projects or environments.
          </Text>
        </Stack>
        <NewRoleButton projects={projects} />
      </Group>
      <Stack gap="sm" component="section" aria-labelledby="built-in-roles">
        <Title order={3} id="built-in-roles" fz="lg">
          Built-in roles
        </Title>
        {builtIn}
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="custom-roles">
        <Title order={3} id="custom-roles" fz="lg">
          Custom roles
        </Title>
        {custom}
      </Stack>
    </Stack>
  );
}

/**
 * Admin › Roles (docs/product.md §2 "Role Management", §6): the built-in roles, read-only, then the
 * custom roles with New Role, Edit (the Update Role modal), Members and Delete. Organisation admins only.
 */
export function RolesAdmin() {
  const { principalUser } = useSession();
  if (isOrganisationAdmin(principalUser)) return <RolesScreen />;
  return (
    <Stack gap="md">
      <Title order={2}>Role Management</Title>
      <Text>{ROLES_ADMINS_ONLY}</Text>
    </Stack>
  );
}
