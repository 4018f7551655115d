import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Badge, Button, Group, Loader, Text } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import { IconFlag, IconFolder, IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { EnvironmentSwatch } from '../../../components/environment-marks';
import { errorReason } from '../../../components/load-error';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { useQuickSearchResults, type QuickSearchResult } from '../hooks/quick-search-results';
import { quickSearch, quickSearchStore } from '../hooks/quick-search-store';
import classes from './quick-search.module.css';

/** The search field's name; also its placeholder where the screen is wide enough to show it whole. */
export const QUICK_SEARCH_LABEL = 'Search features, projects and environments';

function ResultIcon({ result }: { result: QuickSearchResult }) {
  if (result.kind === 'environment') return <EnvironmentSwatch color={result.color ?? ''} size={14} />;
  const Icon = result.kind === 'feature' ? IconFlag : IconFolder;
  return <Icon size={18} aria-hidden="true" />;
}

function ResultAction({
  result,
  optionId,
  selected,
  onChoose,
}: {
  result: QuickSearchResult;
  optionId: string;
  selected: boolean;
  onChoose: (result: QuickSearchResult) => void;
}) {
  return (
    <Spotlight.Action
      // Spotlight.Action keeps `id` to itself: the id the search field points at goes on the element.
      ref={(element: HTMLButtonElement | null) => {
        if (element) element.id = optionId;
      }}
      role="option"
      aria-selected={selected}
      className={classes.action}
      onClick={() => onChoose(result)}
    >
      <span className={classes.icon}>
        <ResultIcon result={result} />
      </span>
      <span className={classes.body}>
        <span className={classes.name}>{result.name}</span>
        <span className={classes.details}>
          <span className={classes.key}>{result.key}</span>
          {result.projectName ? <span className={classes.project}>{result.projectName}</span> : null}
        </span>
      </span>
      {result.production ? (
        <Badge size="xs" color="red" variant="light" className={classes.badge}>
          Production
        </Badge>
      ) : null}
    </Spotlight.Action>
  );
}

function ResultGroup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Spotlight.ActionsGroup label={label} role="group" aria-label={label}>
      {children}
    </Spotlight.ActionsGroup>
  );
}

/**
 * Selects the `index`th result (the last for -1, the first past the end) as the dialog's arrow keys do:
 * the dialog marks the selected result in the page and Enter opens the result so marked.
 */
function selectResult(listId: string, index: number): void {
  const list = document.getElementById(listId);
  const actions = list ? Array.from(list.querySelectorAll('[data-action]')) : [];
  for (const marked of list?.querySelectorAll('[data-selected]') ?? [])
    marked.removeAttribute('data-selected');
  const chosen = index < 0 ? actions.length - 1 : index >= actions.length ? 0 : index;
  const action = actions[chosen];
  action?.setAttribute('data-selected', 'true');
  action?.scrollIntoView({ block: 'nearest' });
  quickSearchStore.updateState((state) => ({ ...state, selected: action ? chosen : -1 }));
}

/**
 * While the selection is the automatic one it is the first result, also as results arrive; once the user
 * moved it with the arrows it stays on the same result while that is listed.
 */
function useSelectionKept(listId: string, query: string, resultIds: string) {
  const moved = useRef(false);
  const lastQuery = useRef(query);
  useEffect(() => {
    if (lastQuery.current !== query) {
      lastQuery.current = query;
      moved.current = false;
    }
    const list = document.getElementById(listId);
    const actions = list ? Array.from(list.querySelectorAll('[data-action]')) : [];
    const kept = moved.current ? actions.findIndex((action) => action.hasAttribute('data-selected')) : -1;
    selectResult(listId, Math.max(kept, 0));
  }, [listId, query, resultIds]);
  return {
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') moved.current = true;
    },
  };
}

/**
 * The id of the selected result. The dialog marks it in the page (`data-selected`) without telling
 * React, so the page is watched, for the search field to point assistive technology at it.
 */
function useSelectedOptionId(listId: string, listShown: boolean): string | undefined {
  const [selectedId, setSelectedId] = useState<string>();
  useEffect(() => {
    const list = document.getElementById(listId);
    const read = () => setSelectedId(list?.querySelector('[data-selected]')?.id || undefined);
    read();
    if (!list) return;
    const observer = new MutationObserver(read);
    observer.observe(list, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-selected'],
    });
    return () => observer.disconnect();
  }, [listId, listShown]);
  return selectedId;
}

/** The search field and the results, rendered while the dialog is open. */
function QuickSearchBody({ query }: { query: string }) {
  const navigate = useNavigate();
  const narrow = useNarrowScreen();
  const { groups, searchingFeatures, featureError, retryFeatures } = useQuickSearchResults(query);
  const idBase = useId();
  const listId = `quick-search-results${idBase.replace(/:/g, '')}`;
  const results = [...groups.features, ...groups.projects, ...groups.environments];
  const optionId = (result: QuickSearchResult) => `${listId}-${result.id}`;
  const selection = useSelectionKept(listId, query, results.map((result) => result.id).join(' '));
  const typed = query.trim() !== '';
  const featureStatus = typed && groups.features.length === 0 && (searchingFeatures || featureError);
  const hasList = results.length > 0 || Boolean(featureStatus);
  const selectedId = useSelectedOptionId(listId, hasList);

  const choose = (result: QuickSearchResult) => void navigate(result.to);
  const renderGroup = (label: string, items: QuickSearchResult[]) =>
    items.length === 0 ? null : (
      <ResultGroup label={label}>
        {items.map((result) => (
          <ResultAction
            key={result.id}
            result={result}
            optionId={optionId(result)}
            selected={optionId(result) === selectedId}
            onChoose={choose}
          />
        ))}
      </ResultGroup>
    );

  return (
    <>
      <Spotlight.Search
        placeholder={narrow ? 'Search' : QUICK_SEARCH_LABEL}
        aria-label={QUICK_SEARCH_LABEL}
        role="combobox"
        aria-expanded={hasList}
        aria-controls={hasList ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={selectedId}
        leftSection={<IconSearch size={20} aria-hidden="true" />}
        rightSection={searchingFeatures ? <Loader size={16} aria-hidden="true" /> : null}
        onKeyDown={selection.onKeyDown}
      />
      {hasList ? (
        <Spotlight.ActionsList id={listId} role="listbox" aria-label="Results">
          {featureStatus ? (
            <ResultGroup label="Features">
              {featureError ? (
                <Group className={classes.status} justify="space-between" wrap="nowrap" role="alert">
                  <Text size="sm">We could not search features. {errorReason(featureError)}</Text>
                  <Button size="compact-xs" variant="default" onClick={retryFeatures}>
                    Retry
                  </Button>
                </Group>
              ) : (
                <Text size="sm" c="dimmed" className={classes.status} role="status">
                  Searching features…
                </Text>
              )}
            </ResultGroup>
          ) : (
            renderGroup('Features', groups.features)
          )}
          {renderGroup('Projects', groups.projects)}
          {renderGroup('Environments', groups.environments)}
        </Spotlight.ActionsList>
      ) : typed ? (
        <Spotlight.Empty role="status">Nothing found</Spotlight.Empty>
      ) : null}
    </>
  );
}

/**
 * The quick search dialog (docs/product.md §2 "Quick search"), loaded the first time the search is asked
 * for (quick-search.tsx). It mounts closed and opens from an effect, so that the dialog records what had
 * the focus and gives it back when it closes.
 */
export function QuickSearchDialog({ openOnMount, onOpened }: { openOnMount: boolean; onOpened: () => void }) {
  const [query, setQuery] = useState('');
  useEffect(() => {
    if (openOnMount) {
      quickSearch.open();
      onOpened();
    }
  }, [openOnMount, onOpened]);
  // Signing out unmounts the shell: the next user starts with it closed.
  useEffect(() => () => quickSearch.close(), []);

  return (
    <Spotlight.Root
      store={quickSearchStore}
      shortcut={null}
      query={query}
      onQueryChange={setQuery}
      // The last search is cleared once the dialog has faded out, or as it opens again before that.
      onSpotlightOpen={() => setQuery('')}
      title="Quick search"
      classNames={{ header: classes.header, content: classes.content }}
    >
      <QuickSearchBody query={query} />
    </Spotlight.Root>
  );
}

/** Opens the dialog once it is loaded; whether it is open. */
export const quickSearchControls = {
  open: () => quickSearch.open(),
  isOpen: () => quickSearchStore.getState().opened,
};
