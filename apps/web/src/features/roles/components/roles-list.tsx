import type { ReactNode } from 'react';
import {
  Badge,
  Button,
  Group,
  List,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconTrash, IconUsers } from '@tabler/icons-react';
import {
  AUTHORITY_LABELS,
  describeGrant,
  type Authority,
  type AuthorityOption,
  type Role,
} from '@vexil/core';
import { TruncatedText } from '../../../components/truncated-text';
import { useNarrowScreen } from '../../../lib/narrow-screen';

const AUTHORITY_COLORS: Readonly<Record<Authority, string>> = {
  ROLE_ADMIN: 'grape',
  ROLE_ORGANISATION_ADMIN: 'violet',
  ROLE_ORGANISATION_PROD_EDITOR: 'red',
  ROLE_ORGANISATION_EDITOR: 'blue',
  ROLE_ORGANISATION_READONLY_USER: 'gray',
};

/** "1 member", "3 members". */
export const memberCount = (n: number) => `${n} ${n === 1 ? 'member' : 'members'}`;
export const NO_GRANTS = 'Grants nothing yet.';
export const NO_MEMBERS = 'Nobody holds it yet.';

/** A button keeps its label whole rather than shrink in a narrow cell. */
const KEEP_WHOLE = { flexShrink: 0 } as const;

function AuthorityBadge({ name }: { name: Authority }) {
  return (
    <Badge variant="light" radius="sm" color={AUTHORITY_COLORS[name]} miw="max-content">
      {AUTHORITY_LABELS[name]}
    </Badge>
  );
}

/** The built-in authorities, read-only: each with what it may do; a card each on a phone. */
export function BuiltInRoles({ authorities }: { authorities: AuthorityOption[] | null }) {
  const narrow = useNarrowScreen();
  if (authorities === null) return <Skeleton height={narrow ? 320 : 200} radius="md" />;
  if (narrow) {
    return (
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Built-in roles">
        {authorities.map((option) => (
          <Paper
            component="li"
            key={option.name}
            withBorder
            radius="md"
            p="sm"
            aria-label={AUTHORITY_LABELS[option.name]}
          >
            <Stack gap={6}>
              <AuthorityBadge name={option.name} />
              <Text size="sm">{option.description}</Text>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table verticalSpacing="sm" aria-label="Built-in roles">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={220}>Role</Table.Th>
          <Table.Th>What it may do</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {authorities.map((option) => (
          <Table.Tr key={option.name}>
            <Table.Td>
              <AuthorityBadge name={option.name} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{option.description}</Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export type RolesListProps = {
  /** null while the list first loads: skeletons stand in. */
  roles: Role[] | null;
  /** Names the organisation's projects by id, for the grants' summaries. */
  projectName: (id: string) => string | undefined;
  /** The id of the role being deleted, whose button spins. */
  deletingId: string | null;
  onMembers: (role: Role) => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
};

/** A readable summary of a role's grants, one sentence each. */
function Grants({ role, projectName }: { role: Role; projectName: RolesListProps['projectName'] }) {
  if (role.grants.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {NO_GRANTS}
      </Text>
    );
  return (
    <List size="sm" spacing={4} aria-label={`Grants of ${role.name}`}>
      {role.grants.map((grant, index) => (
        <List.Item key={index}>{describeGrant(grant, projectName)}</List.Item>
      ))}
    </List>
  );
}

function Members({ role }: { role: Role }) {
  if (role.members.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {NO_MEMBERS}
      </Text>
    );
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {memberCount(role.members.length)}
      </Text>
      <TruncatedText size="xs" c="dimmed" text={role.members.map((member) => member.name).join(', ')} />
    </Stack>
  );
}

function Actions({
  role,
  deleting,
  onMembers,
  onEdit,
  onDelete,
  wrap,
}: { role: Role; deleting: boolean; wrap: boolean } & Pick<
  RolesListProps,
  'onMembers' | 'onEdit' | 'onDelete'
>) {
  return (
    <Group gap="xs" justify={wrap ? 'flex-start' : 'flex-end'} wrap={wrap ? 'wrap' : 'nowrap'}>
      <Button
        size="xs"
        variant="light"
        style={KEEP_WHOLE}
        leftSection={<IconUsers size={14} aria-hidden="true" />}
        aria-label={`Members of ${role.name}`}
        onClick={() => onMembers(role)}
      >
        Members
      </Button>
      <Button
        size="xs"
        variant="default"
        style={KEEP_WHOLE}
        leftSection={<IconPencil size={14} aria-hidden="true" />}
        aria-label={`Edit ${role.name}`}
        onClick={() => onEdit(role)}
      >
        Edit
      </Button>
      <Button
        size="xs"
        variant="light"
        color="red"
        style={KEEP_WHOLE}
        leftSection={<IconTrash size={14} aria-hidden="true" />}
        aria-label={`Delete ${role.name}`}
        loading={deleting}
        onClick={() => onDelete(role)}
      >
        Delete
      </Button>
    </Group>
  );
}

function NameCell({ role }: { role: Role }) {
  return (
    <Stack gap={2}>
      <TruncatedText text={role.name} size="md" fw={500} />
      {role.description ? (
        <Text size="sm" c="dimmed" lineClamp={3}>
          {role.description}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The custom roles: name and description, a readable summary of the grants, who holds each, and
 * Members, Edit and Delete; cards below the `sm` breakpoint.
 */
export function RolesList({ roles, projectName, deletingId, ...actions }: RolesListProps) {
  const narrow = useNarrowScreen();
  if (roles === null) return <Skeleton height={160} radius="md" data-testid="roles-skeleton" />;
  if (narrow) {
    return (
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Custom roles">
        {roles.map((role) => {
          const section = (label: string, content: ReactNode) => (
            <Stack gap={2}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {label}
              </Text>
              {content}
            </Stack>
          );
          return (
            <Paper component="li" key={role.id} withBorder radius="md" p="sm" aria-label={role.name}>
              <Stack gap="sm">
                <NameCell role={role} />
                {section('Grants', <Grants role={role} projectName={projectName} />)}
                {section('Members', <Members role={role} />)}
                <Actions role={role} deleting={deletingId === role.id} wrap {...actions} />
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table layout="fixed" verticalSpacing="sm" aria-label="Custom roles">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="24%">Name</Table.Th>
            <Table.Th>Grants</Table.Th>
            <Table.Th w="16%">Members</Table.Th>
            <Table.Th w={340}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.map((role) => (
            <Table.Tr key={role.id} style={{ verticalAlign: 'top' }}>
              <Table.Td>
                <NameCell role={role} />
              </Table.Td>
              <Table.Td>
                <Grants role={role} projectName={projectName} />
              </Table.Td>
              <Table.Td>
                <Members role={role} />
              </Table.Td>
              <Table.Td>
                <Actions role={role} deleting={deletingId === role.id} wrap={false} {...actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
