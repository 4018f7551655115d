import { Button, Group, Paper, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Segment } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { TruncatedText } from '../../../components/truncated-text';
import { useNarrowScreen } from '../../../lib/narrow-screen';

export type SegmentsTableProps = {
  /** null while the list first loads: skeleton rows stand in. */
  segments: Segment[] | null;
  /** Why Edit is disabled, or null when the user may edit. */
  editDenial: string | null;
  /** Why Delete is disabled, or null when the user may delete. */
  deleteDenial: string | null;
  /** The id of the segment being deleted, whose button spins. */
  deletingId: string | null;
  onEdit: (segment: Segment) => void;
  onDelete: (segment: Segment) => void;
  /** A new search is loading: the rows shown are the previous answer. */
  stale?: boolean;
};

const SKELETON_ROWS = 4;

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, index) => (
    <Table.Tr key={index} data-testid="segment-skeleton-row">
      <Table.Td>
        <Stack gap={6}>
          <Skeleton height={14} width="45%" />
          <Skeleton height={10} width="30%" />
        </Stack>
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="75%" />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Skeleton height={30} width={64} />
          <Skeleton height={30} width={74} />
        </Group>
      </Table.Td>
    </Table.Tr>
  ));
}

type SegmentProps = {
  segment: Segment;
  editDenial: string | null;
  deleteDenial: string | null;
  deleting: boolean;
  onEdit: () => void;
  onDelete: () => void;
};

function SegmentDescription({ segment }: { segment: Segment }) {
  return (
    <Text
      size="sm"
      c={segment.description ? undefined : 'dimmed'}
      style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
    >
      {segment.description || 'No description'}
    </Text>
  );
}

/** Edit and Delete, each disabled with the reason in a tooltip when the user may not. */
function SegmentActions({
  segment,
  editDenial,
  deleteDenial,
  deleting,
  onEdit,
  onDelete,
  justify,
}: SegmentProps & { justify: 'flex-start' | 'flex-end' }) {
  return (
    <Group gap="xs" justify={justify} wrap="nowrap">
      <DisabledReason denial={editDenial}>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPencil size={14} aria-hidden="true" />}
          aria-label={`Edit ${segment.name}`}
          disabled={editDenial !== null}
          onClick={onEdit}
        >
          Edit
        </Button>
      </DisabledReason>
      <DisabledReason denial={deleteDenial}>
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconTrash size={14} aria-hidden="true" />}
          aria-label={`Delete ${segment.name}`}
          disabled={deleteDenial !== null}
          loading={deleting}
          onClick={onDelete}
        >
          Delete
        </Button>
      </DisabledReason>
    </Group>
  );
}

function SegmentRow(props: SegmentProps) {
  const { segment } = props;
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={0} align="flex-start">
          <TruncatedText text={segment.name} size="md" fw={500} />
          <TruncatedText text={segment.key} size="xs" c="dimmed" ff="monospace" />
        </Stack>
      </Table.Td>
      <Table.Td>
        <SegmentDescription segment={segment} />
      </Table.Td>
      <Table.Td>
        <SegmentActions {...props} justify="flex-end" />
      </Table.Td>
    </Table.Tr>
  );
}

/** On a phone, a card per segment: name and key (whole, wrapped), description, Edit and Delete. */
function SegmentCard(props: SegmentProps) {
  const { segment } = props;
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={segment.name}>
      <Stack gap={8}>
        <Stack gap={0}>
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {segment.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {segment.key}
          </Text>
        </Stack>
        <SegmentDescription segment={segment} />
        <SegmentActions {...props} justify="flex-start" />
      </Stack>
    </Paper>
  );
}

/**
 * Below the `sm` breakpoint the table would hide Edit and Delete off the side of the screen: the
 * segments are a list of cards instead, with the same accessible names.
 */
function SegmentCards({
  segments,
  editDenial,
  deleteDenial,
  deletingId,
  onEdit,
  onDelete,
  stale = false,
}: SegmentsTableProps) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      p={0}
      aria-label="Segments"
      aria-busy={segments === null || stale}
      style={{ listStyle: 'none', opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {segments === null
        ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
            <Paper
              component="li"
              key={index}
              withBorder
              radius="md"
              p="sm"
              data-testid="segment-skeleton-row"
            >
              <Stack gap={8}>
                <Skeleton height={14} width="45%" />
                <Skeleton height={10} width="30%" />
                <Skeleton height={14} width="75%" />
              </Stack>
            </Paper>
          ))
        : segments.map((segment) => (
            <SegmentCard
              key={segment.id}
              segment={segment}
              editDenial={editDenial}
              deleteDenial={deleteDenial}
              deleting={deletingId === segment.id}
              onEdit={() => onEdit(segment)}
              onDelete={() => onDelete(segment)}
            />
          ))}
    </Stack>
  );
}

/**
 * docs/product.md §2 "Segments page": name (with the key under it) and description, with Edit and
 * Delete; cards on a phone.
 */
export function SegmentsTable(props: SegmentsTableProps) {
  const { segments, editDenial, deleteDenial, deletingId, onEdit, onDelete, stale = false } = props;
  const narrow = useNarrowScreen();
  if (narrow) return <SegmentCards {...props} />;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table
        // Fixed: a long name or key is cut (with a tooltip) rather than pushing the buttons away.
        layout="fixed"
        verticalSpacing="sm"
        highlightOnHover
        aria-label="Segments"
        aria-busy={segments === null || stale}
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="35%">Name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th w={220}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {segments === null ? (
            <SkeletonRows />
          ) : (
            segments.map((segment) => (
              <SegmentRow
                key={segment.id}
                segment={segment}
                editDenial={editDenial}
                deleteDenial={deleteDenial}
                deleting={deletingId === segment.id}
                onEdit={() => onEdit(segment)}
                onDelete={() => onDelete(segment)}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
