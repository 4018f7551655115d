import { useState, type ReactNode } from 'react';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess, notifyWarning } from '../../../lib/notify';
import { can, denialOf, type Principal, type Segment } from '@vexil/core';
import { useDeleteSegment } from '../../../entities/segments/api/delete-segment';
import { useSegments } from '../../../entities/segments/api/get-segments';
import { openSegmentForm } from './segment-form';
import { SegmentsTable } from './segments-table';
import { errorReason, LoadError } from '../../../components/load-error';
import { EmptyState } from '../../../components/empty-state';

/** The search is sent this long after the last keystroke. */
export const SEGMENT_SEARCH_DEBOUNCE_MS = 250;

export const SEGMENTS_EMPTY_MESSAGE = 'Segments allow you to create defined user cohorts.';
export const SEGMENT_DELETED_MESSAGE = 'Segment deleted.';

export type SegmentsPageProps = {
  project: {
    key: string;
    name: string;
    /** The project's id, so that a custom role limited to some projects applies. */
    id?: string;
  };
  environment: { key: string; name: string; production: boolean; tags: readonly string[] };
  /** The signed-in user (the session's principalUser), whose authorities decide the buttons. */
  user: Principal;
};

/** Why the user may not update or delete segments here, in the server's words; null when they may. */
function segmentDenial(
  user: Principal,
  action: 'update' | 'delete',
  environment: SegmentsPageProps['environment'],
  projectId: string | undefined,
): string | null {
  const constraint = { production: environment.production, tags: environment.tags, projectId };
  return denialOf(user, action, { type: 'segment', environment: constraint })?.message ?? null;
}

function NewSegmentButton({ onClick }: { onClick: () => void }) {
  return (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onClick}>
      New Segment
    </Button>
  );
}

/** The search of the address (`?query=`), and a way to change it without adding history entries. */
function useAddressQuery(): [string, (query: string) => void] {
  const [params, setParams] = useSearchParams();
  const query = (params.get('query') ?? '').trim();
  const setQuery = (next: string) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next.trim() === '') updated.delete('query');
        else updated.set('query', next.trim());
        return updated;
      },
      { replace: true },
    );
  return [query, setQuery];
}

/**
 * docs/product.md §2 "Segments page": the environment's user segments, searchable, with New Segment (create
 * permission only), and Edit and Delete on each row (which, unlike the original product, work).
 */
export function SegmentsPage({ project, environment, user }: SegmentsPageProps) {
  const [query, setQuery] = useAddressQuery();
  // The box shows what is typed; the address (and so the request) follows a moment later. Going back to
  // an address with another search puts that search in the box.
  const [search, setSearch] = useState(query);
  const [addressQuery, setAddressQuery] = useState(query);
  if (addressQuery !== query) {
    setAddressQuery(query);
    if (search.trim() !== query) setSearch(query);
  }
  const applySearch = useDebouncedCallback(setQuery, SEGMENT_SEARCH_DEBOUNCE_MS);

  const list = useSegments({ projectKey: project.key, environmentKey: environment.key, query });
  const deleteSegment = useDeleteSegment();

  const constraint = { production: environment.production, tags: environment.tags, projectId: project.id };
  const canCreate = can(user, 'create', { type: 'segment', environment: constraint });
  const editDenial = segmentDenial(user, 'update', environment, project.id);
  const deleteDenial = segmentDenial(user, 'delete', environment, project.id);

  const formEnvironment = { ...environment, projectId: project.id };
  const newSegment = () => openSegmentForm({ projectKey: project.key, environment: formEnvironment, user });
  const editSegment = (segment: Segment) =>
    openSegmentForm({ projectKey: project.key, environment: formEnvironment, user, segment });

  const removeSegment = async (segment: Segment) => {
    const confirmed = await confirm({
      title: 'Delete Segment',
      message: `Delete the segment "${segment.name}"? Rules can no longer target it.`,
      confirmLabel: 'Delete segment',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteSegment.mutateAsync(segment.id);
    } catch (error) {
      const reason = errorReason(error) || `We could not delete the segment "${segment.name}".`;
      // docs/product.md §8: a refused request (400) is a warning that stays until read, here the rules to change.
      if (isApiError(error) && error.status === 400) notifyWarning(reason, { persistent: true });
      else notifyError(reason);
      return;
    }
    notifySuccess(SEGMENT_DELETED_MESSAGE);
  };

  const clearSearch = () => {
    applySearch.cancel();
    setSearch('');
    setQuery('');
  };

  const data = list.data;
  let body: ReactNode;
  if (list.isError && !data) {
    body = (
      <LoadError
        title="We could not load the segments."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (data && data.length === 0 && !list.isPlaceholderData) {
    body = query ? (
      <EmptyState>
        <Text c="dimmed">No segments match “{query}”.</Text>
        <Button variant="default" onClick={clearSearch}>
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState>
        <Text c="dimmed">{SEGMENTS_EMPTY_MESSAGE}</Text>
        {canCreate ? <NewSegmentButton onClick={newSegment} /> : null}
      </EmptyState>
    );
  } else {
    body = (
      <SegmentsTable
        segments={data ?? null}
        stale={list.isPlaceholderData}
        editDenial={editDenial}
        deleteDenial={deleteDenial}
        deletingId={deleteSegment.isPending ? deleteSegment.variables : null}
        onEdit={editSegment}
        onDelete={(segment) => void removeSegment(segment)}
      />
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>Segments</Title>
          {/* Names are the user's: one without spaces wraps rather than widening the page. */}
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Segments for {project.name} / {environment.name} environment
          </Text>
        </Stack>
        {canCreate ? <NewSegmentButton onClick={newSegment} /> : null}
      </Group>
      <TextInput
        type="search"
        aria-label="Search segments"
        placeholder="Search by name, key or description"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(event) => {
          const text = event.currentTarget.value;
          setSearch(text);
          applySearch(text);
        }}
        maw={420}
      />
      {body}
    </Stack>
  );
}
