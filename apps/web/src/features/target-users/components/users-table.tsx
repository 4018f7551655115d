import { Button, Group, Paper, Skeleton, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import { formatDate } from '../../../lib/format';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import type { ReportedUser } from '../../../entities/target-users/api/get-target-users';
import { AttributeChips } from './attribute-chips';
import { DisabledReason } from '../../../components/disabled-reason';
import { TruncatedText } from '../../../components/truncated-text';

dayjs.extend(relativeTime);

export type UsersTableProps = {
  /** null while the first page loads: skeleton rows stand in. */
  users: ReportedUser[] | null;
  /** Why Delete is disabled, or null when the user may delete. */
  deleteDenial: string | null;
  /** The id of the user being deleted, whose button spins. */
  deletingId: string | null;
  onDelete: (user: ReportedUser) => void;
  /** Another page or search is loading: the rows shown are the previous answer. */
  stale?: boolean;
};

const SKELETON_ROWS = 5;

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, index) => (
    <Table.Tr key={index} data-testid="user-skeleton-row">
      <Table.Td>
        <Skeleton height={14} width="60%" />
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          <Skeleton height={20} width={90} radius="xl" />
          <Skeleton height={20} width={70} radius="xl" />
          <Skeleton height={20} width={110} radius="xl" />
        </Group>
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width={90} />
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">
          <Skeleton height={26} width={72} />
        </Group>
      </Table.Td>
    </Table.Tr>
  ));
}

/** "3 minutes ago", with the date and time in a tooltip. */
function LastSeen({ date }: { date: string }) {
  const seen = dayjs(date);
  if (!seen.isValid()) return <Text size="sm">—</Text>;
  return (
    <Tooltip label={formatDate(seen)} withArrow>
      <Text size="sm" component="time" dateTime={seen.toISOString()} style={{ whiteSpace: 'nowrap' }}>
        {seen.fromNow()}
      </Text>
    </Tooltip>
  );
}

type UserProps = {
  user: ReportedUser;
  deleteDenial: string | null;
  deleting: boolean;
  onDelete: () => void;
};

/** Delete, disabled with the reason in a tooltip when the user may not. */
function DeleteUserButton({ user, deleteDenial, deleting, onDelete }: UserProps) {
  return (
    <DisabledReason denial={deleteDenial}>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden="true" />}
        aria-label={`Delete ${user.id}`}
        disabled={deleteDenial !== null}
        loading={deleting}
        onClick={onDelete}
      >
        Delete
      </Button>
    </DisabledReason>
  );
}

function UserRow(props: UserProps) {
  const { user } = props;
  return (
    <Table.Tr>
      <Table.Td>
        <TruncatedText text={user.id} ff="monospace" />
      </Table.Td>
      <Table.Td>
        <AttributeChips attributes={user.attributes} />
      </Table.Td>
      <Table.Td>
        <LastSeen date={user.lastSeenDate} />
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end" wrap="nowrap">
          <DeleteUserButton {...props} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** On a phone, a card per user: the id (whole, wrapped), the attributes, when last seen, and Delete. */
function UserCard(props: UserProps) {
  const { user } = props;
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={user.id}>
      <Stack gap={8}>
        <Text size="sm" ff="monospace" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {user.id}
        </Text>
        <AttributeChips attributes={user.attributes} />
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap={4} wrap="nowrap">
            <Text size="sm" c="dimmed">
              Last seen
            </Text>
            <LastSeen date={user.lastSeenDate} />
          </Group>
          <DeleteUserButton {...props} />
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Below the `sm` breakpoint the table would hide Last seen and Delete off the side of the screen: the
 * users are a list of cards instead, with the same accessible names.
 */
function UserCards({ users, deleteDenial, deletingId, onDelete, stale = false }: UsersTableProps) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      p={0}
      aria-label="Target Users"
      aria-busy={users === null || stale}
      style={{ listStyle: 'none', opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {users === null
        ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
            <Paper component="li" key={index} withBorder radius="md" p="sm" data-testid="user-skeleton-row">
              <Stack gap={8}>
                <Skeleton height={14} width="60%" />
                <Skeleton height={20} width="80%" radius="xl" />
                <Skeleton height={14} width="40%" />
              </Stack>
            </Paper>
          ))
        : users.map((user) => (
            <UserCard
              key={user.id}
              user={user}
              deleteDenial={deleteDenial}
              deleting={deletingId === user.id}
              onDelete={() => onDelete(user)}
            />
          ))}
    </Stack>
  );
}

/**
 * docs/product.md §2 "Users page": the Target Users table — user id, attributes, last seen, and Delete;
 * cards on a phone.
 */
export function UsersTable(props: UsersTableProps) {
  const { users, deleteDenial, deletingId, onDelete, stale = false } = props;
  const narrow = useNarrowScreen();
  if (narrow) return <UserCards {...props} />;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table
        // Fixed: a long user id is cut (with a tooltip) rather than pushing the other columns away.
        layout="fixed"
        verticalSpacing="sm"
        highlightOnHover
        aria-label="Target Users"
        aria-busy={users === null || stale}
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="22%">User id</Table.Th>
            <Table.Th>Attributes</Table.Th>
            <Table.Th w={160}>Last seen</Table.Th>
            <Table.Th w={130}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users === null ? (
            <SkeletonRows />
          ) : (
            users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                deleteDenial={deleteDenial}
                deleting={deletingId === user.id}
                onDelete={() => onDelete(user)}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
