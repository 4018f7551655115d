import {
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { Token } from '@vexil/core';
import { TruncatedText } from '../../../components/truncated-text';
import { formatDate } from '../../../lib/format';
import { useNarrowScreen } from '../../../lib/narrow-screen';

dayjs.extend(relativeTime);

export const NEVER_USED = 'Never';
export const NEVER_EXPIRES = 'Never';

export type TokensListProps = {
  /** null while the list first loads: skeletons stand in. */
  tokens: Token[] | null;
  /** The id of the token being deleted, whose button spins. */
  deletingId: string | null;
  onDelete: (token: Token) => void;
};

/** The masked token, `vxp_…a1B2`: enough to tell tokens apart, nothing to use. */
function MaskedToken({ token }: { token: Token }) {
  return (
    <Code w="fit-content" style={{ whiteSpace: 'nowrap' }}>
      {token.key}
    </Code>
  );
}

/** A date to read, e.g. "24th Nov 2026, 1:45pm". */
function DateText({ date }: { date: string }) {
  const value = dayjs(date);
  return (
    <Text size="sm" component="time" dateTime={value.toISOString()}>
      {formatDate(value)}
    </Text>
  );
}

/** "Never", the date it expires, or "Expired" with the date it did. */
function Expiry({ token }: { token: Token }) {
  if (token.expiresDate === null) {
    return (
      <Text size="sm" c="dimmed">
        {NEVER_EXPIRES}
      </Text>
    );
  }
  const expires = dayjs(token.expiresDate);
  if (!expires.isAfter(dayjs())) {
    return (
      <Group gap={6}>
        <Badge color="red" variant="light" size="sm" style={{ flexShrink: 0 }}>
          Expired
        </Badge>
        <DateText date={token.expiresDate} />
      </Group>
    );
  }
  return <DateText date={token.expiresDate} />;
}

/** "3 minutes ago" with the date and time in a tooltip, or "Never". */
function LastUsed({ token }: { token: Token }) {
  if (token.lastUsedDate === null) {
    return (
      <Text size="sm" c="dimmed">
        {NEVER_USED}
      </Text>
    );
  }
  const used = dayjs(token.lastUsedDate);
  return (
    <Tooltip label={formatDate(used)} withArrow>
      <Text size="sm" component="time" dateTime={used.toISOString()} style={{ whiteSpace: 'nowrap' }}>
        {used.fromNow()}
      </Text>
    </Tooltip>
  );
}

function DeleteButton({
  token,
  deleting,
  onDelete,
}: {
  token: Token;
  deleting: boolean;
  onDelete: () => void;
}) {
  return (
    <Button
      size="xs"
      variant="light"
      color="red"
      leftSection={<IconTrash size={14} aria-hidden="true" />}
      aria-label={`Delete ${token.name}`}
      loading={deleting}
      onClick={onDelete}
    >
      Delete
    </Button>
  );
}

function SkeletonRows() {
  return Array.from({ length: 3 }, (_, index) => (
    <Table.Tr key={index} data-testid="token-skeleton-row">
      {[50, 70, 60, 60, 50].map((width, cell) => (
        <Table.Td key={cell}>
          <Skeleton height={14} width={`${width}%`} />
        </Table.Td>
      ))}
      <Table.Td>
        <Group justify="flex-end">
          <Skeleton height={26} width={72} />
        </Group>
      </Table.Td>
    </Table.Tr>
  ));
}

/** On a phone, a card per token: its name, masked token, dates and Delete, stacked. */
function TokenCard({ token, deleting, onDelete }: { token: Token; deleting: boolean; onDelete: () => void }) {
  const line = (label: string, value: ReactNode) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={80} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      {value}
    </Group>
  );
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={token.name}>
      <Stack gap={6}>
        <TruncatedText text={token.name} size="md" fw={500} />
        <MaskedToken token={token} />
        {line('Created', <DateText date={token.createdDate} />)}
        {line('Expires', <Expiry token={token} />)}
        {line('Last used', <LastUsed token={token} />)}
        <Group>
          <DeleteButton token={token} deleting={deleting} onDelete={onDelete} />
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * docs/product.md §2 "Access Tokens": the member's tokens with name, masked token, created, expires and
 * last used dates, and Delete; cards below the `sm` breakpoint.
 */
export function TokensList({ tokens, deletingId, onDelete }: TokensListProps) {
  const narrow = useNarrowScreen();
  if (narrow) {
    if (tokens === null) return <Skeleton height={160} radius="md" data-testid="token-skeleton-card" />;
    return (
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Access tokens">
        {tokens.map((token) => (
          <TokenCard
            key={token.id}
            token={token}
            deleting={deletingId === token.id}
            onDelete={() => onDelete(token)}
          />
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table
        // Fixed: a long name is cut (with a tooltip) rather than pushing the other columns away.
        layout="fixed"
        verticalSpacing="sm"
        highlightOnHover
        aria-label="Access tokens"
        aria-busy={tokens === null}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th w={140}>Token</Table.Th>
            <Table.Th w={200}>Created</Table.Th>
            <Table.Th w={230}>Expires</Table.Th>
            <Table.Th w={160}>Last used</Table.Th>
            <Table.Th w={130}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens === null ? (
            <SkeletonRows />
          ) : (
            tokens.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>
                  <TruncatedText text={token.name} size="md" fw={500} />
                </Table.Td>
                <Table.Td>
                  <MaskedToken token={token} />
                </Table.Td>
                <Table.Td>
                  <DateText date={token.createdDate} />
                </Table.Td>
                <Table.Td>
                  <Expiry token={token} />
                </Table.Td>
                <Table.Td>
                  <LastUsed token={token} />
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end" wrap="nowrap">
                    <DeleteButton
                      token={token}
                      deleting={deletingId === token.id}
                      onDelete={() => onDelete(token)}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
