import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { denialOf, type Principal } from '@vexil/core';
import { useDeleteTargetUser } from '../../../entities/target-users/api/delete-target-user';
import {
  TARGET_USER_PAGE_SIZE,
  useTargetUsers,
  type ReportedUser,
} from '../../../entities/target-users/api/get-target-users';
import { UsersTable } from './users-table';
import { errorReason, LoadError } from '../../../components/load-error';
import { EmptyState } from '../../../components/empty-state';

/** The search is sent this long after the last keystroke. */
export const USER_SEARCH_DEBOUNCE_MS = 250;

export const USERS_EMPTY_MESSAGE = 'No users yet. Users appear here when an SDK evaluates features for them.';
export const USER_REMOVED_MESSAGE = 'User removed.';

export type UsersPageProps = {
  project: {
    key: string;
    name: string;
    /** The project's id, so that a custom role limited to some projects applies. */
    id?: string;
  };
  environment: { key: string; name: string; production: boolean; tags: readonly string[] };
  /** The signed-in user (the session's principalUser), whose authorities decide Delete. */
  user: Principal;
};

const PAGING_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** Why the user may not remove users here, or null when they may, in the server's words. */
function deleteDenialOf(
  user: Principal,
  environment: UsersPageProps['environment'],
  projectId: string | undefined,
): string | null {
  const constraint = { production: environment.production, tags: environment.tags, projectId };
  return denialOf(user, 'delete', { type: 'targetUser', environment: constraint })?.message ?? null;
}

/**
 * The page's state in the address, so that it survives a reload and can be shared: `q` (the id search)
 * and `page` (from 1). Defaults are left out.
 */
function useUsersAddress() {
  const [params, setParams] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  const requested = Number(params.get('page'));
  const page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const update = (change: { q?: string | null; page?: number | null }, replace = false) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (change.q !== undefined) {
          if (change.q) next.set('q', change.q);
          else next.delete('q');
        }
        if (change.page !== undefined) {
          if (change.page && change.page > 1) next.set('page', String(change.page));
          else next.delete('page');
        }
        return next;
      },
      { replace },
    );
  return { query, page, update };
}

/**
 * docs/product.md §2 "Users page": the users SDKs reported in an environment (id, latest attributes, last seen),
 * searchable by id and paged. Unlike the original product, Delete works (it forgets the user until an
 * SDK reports them again) and there is no Edit: attributes belong to the application's SDK.
 */
export function UsersPage({ project, environment, user }: UsersPageProps) {
  const address = useUsersAddress();
  const { query, page } = address;

  // The box shows what is typed; the address (and so the request) follows a moment later. Going back to
  // an address with another search puts that search in the box.
  const [search, setSearch] = useState(query);
  const [addressQuery, setAddressQuery] = useState(query);
  if (addressQuery !== query) {
    setAddressQuery(query);
    if (search.trim() !== query) setSearch(query);
  }
  const applySearch = useDebouncedCallback(
    (text: string) => address.update({ q: text.trim() || null, page: null }, true),
    USER_SEARCH_DEBOUNCE_MS,
  );

  const list = useTargetUsers({
    projectKey: project.key,
    environmentKey: environment.key,
    query,
    page: page - 1,
  });
  const deleteUser = useDeleteTargetUser();
  const deleteDenial = deleteDenialOf(user, environment, project.id);

  const data = list.data;
  const totalElements = data ? (data.totalElements ?? data.page * data.pageSize + data.content.length) : 0;
  const pages = Math.max(1, Math.ceil(totalElements / TARGET_USER_PAGE_SIZE));
  const pastTheEnd = Boolean(
    data && !list.isPlaceholderData && data.content.length === 0 && totalElements > 0,
  );

  // An address past the last page (users were removed, or an old link) goes to the last page.
  const goToLastPage = useEffectEvent(() => address.update({ page: pages }, true));
  useEffect(() => {
    if (pastTheEnd) goToLastPage();
  }, [pastTheEnd]);

  const removeUser = async (target: ReportedUser) => {
    const confirmed = await confirm({
      title: 'Delete User',
      message: `Forget the user "${target.id}"? Their attributes are removed; they reappear if an SDK reports them again.`,
      confirmLabel: 'Delete user',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteUser.mutateAsync({
        projectKey: project.key,
        environmentKey: environment.key,
        userId: target.id,
      });
    } catch (error) {
      // Someone else removed them first: the list refreshes, and the outcome is the one asked for.
      if (isApiError(error) && error.status === 404) notifySuccess(USER_REMOVED_MESSAGE);
      else notifyError(errorReason(error) || `We could not remove the user "${target.id}".`);
      return;
    }
    notifySuccess(USER_REMOVED_MESSAGE);
  };

  const clearSearch = () => {
    applySearch.cancel();
    setSearch('');
    address.update({ q: null, page: null }, true);
  };

  let body: ReactNode;
  if (list.isError && !data) {
    body = (
      <LoadError
        title="We could not load the users."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (data && totalElements === 0 && !list.isPlaceholderData) {
    body = query ? (
      <EmptyState py={56} gap="sm" maw={520}>
        <Text c="dimmed">No users have an id containing “{query}”.</Text>
        <Button variant="default" onClick={clearSearch}>
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState py={56} gap="sm" maw={520}>
        <Text fw={500}>{USERS_EMPTY_MESSAGE}</Text>
        <Text size="sm" c="dimmed">
          Give your application&apos;s SDK this environment&apos;s server or JavaScript key: you find them
          under Api Keys on the Features page.
        </Text>
      </EmptyState>
    );
  } else {
    const shown = data?.content.length ?? 0;
    const from = shown === 0 ? 0 : (page - 1) * TARGET_USER_PAGE_SIZE + 1;
    const to = shown === 0 ? 0 : from + shown - 1;
    body = (
      <Stack gap="sm">
        <UsersTable
          users={data?.content ?? null}
          stale={list.isPlaceholderData}
          deleteDenial={deleteDenial}
          deletingId={deleteUser.isPending ? deleteUser.variables.userId : null}
          onDelete={(target) => void removeUser(target)}
        />
        {data ? (
          <Group justify="space-between" gap="md">
            <Text size="sm" c="dimmed" aria-live="polite">
              Showing {from}–{to} of {totalElements.toLocaleString('en')}
            </Text>
            <Pagination
              total={pages}
              value={Math.min(page, pages)}
              onChange={(next) => {
                address.update({ page: next });
                // The pager sits under 50 rows: the next page is read from its top.
                window.scrollTo({ top: 0 });
              }}
              size="sm"
              hideWithOnePage
              getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
              getControlProps={(control) => ({ 'aria-label': PAGING_LABELS[control] })}
            />
          </Group>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Users</Title>
        {/* Names are the user's: one without spaces wraps rather than widening the page. */}
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Users your applications evaluated features for in {environment.name}
        </Text>
      </Stack>
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} aria-hidden="true" />}>
        <Text size="sm">
          Users appear here when an SDK evaluates features or sends events for them, with the latest
          attributes it reported. Attributes cannot be edited here: your application&apos;s SDK would
          overwrite them on its next report.
        </Text>
      </Alert>
      <Group justify="space-between" align="flex-end" gap="md">
        <Title order={2} size="h4">
          Target Users
        </Title>
        <TextInput
          type="search"
          aria-label="Search users"
          placeholder="Search by user id"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setSearch(text);
            applySearch(text);
          }}
          w={320}
          maw="100%"
        />
      </Group>
      {body}
    </Stack>
  );
}
