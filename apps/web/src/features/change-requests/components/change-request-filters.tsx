import { Group, SegmentedControl, Select, Text } from '@mantine/core';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { CHANGE_REQUEST_STATES, type ChangeRequestState } from '@vexil/core';
import type { ChangeRequestsView } from '../../../lib/paths';
import { STATE_LABELS } from './change-request-format';

/** The list's filters, kept in the address so that a reload, a link or the navigation's badge keep them. */
export type ChangeRequestFilters = {
  /** Everyone's, those waiting for the user's review, or the user's own. */
  view: ChangeRequestsView | 'all';
  state: ChangeRequestState | null;
  /** Every environment of the project, or only the one in the address. */
  scope: 'all' | 'current';
  /** Counts from 1. */
  page: number;
};

const isState = (value: string | null): value is ChangeRequestState =>
  value !== null && (CHANGE_REQUEST_STATES as readonly string[]).includes(value);

/** `?view=to-review|mine&state=…&environment=current&page=2`; a change of filter goes back to page 1. */
export function useChangeRequestFilters() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view');
  const state = params.get('state');
  const page = Number(params.get('page') ?? 1);
  const filters: ChangeRequestFilters = {
    view: view === 'to-review' || view === 'mine' ? view : 'all',
    state: isState(state) ? state : null,
    scope: params.get('environment') === 'current' ? 'current' : 'all',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (!('page' in changes)) next.delete('page');
        for (const [name, value] of Object.entries(changes)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: true },
    );
  return {
    filters,
    setView: (value: string) => set({ view: value === 'all' ? null : value }),
    setState: (value: string | null) => set({ state: value }),
    setScope: (value: string) => set({ environment: value === 'current' ? 'current' : null }),
    setPage: (value: number) => set({ page: value === 1 ? null : String(value) }),
  };
}

export type ChangeRequestFilterBarProps = {
  filters: ChangeRequestFilters;
  environmentName: string;
  onView: (view: string) => void;
  onState: (state: string | null) => void;
  onScope: (scope: string) => void;
};

/** To review / Mine / All, the state, and every environment or the current one. */
export function ChangeRequestFilterBar({
  filters,
  environmentName,
  onView,
  onState,
  onScope,
}: ChangeRequestFilterBarProps) {
  const viewLabel = useId();
  const scopeLabel = useId();
  return (
    <Group gap="md" align="flex-end" role="search" aria-label="Filter the change requests">
      <div>
        <Text id={viewLabel} size="sm" fw={500} mb={4}>
          Show
        </Text>
        <SegmentedControl
          aria-labelledby={viewLabel}
          value={filters.view}
          onChange={onView}
          data={[
            { value: 'all', label: 'All' },
            { value: 'to-review', label: 'To review' },
            { value: 'mine', label: 'Mine' },
          ]}
        />
      </div>
      <div>
        <Text id={scopeLabel} size="sm" fw={500} mb={4}>
          Environments
        </Text>
        <SegmentedControl
          aria-labelledby={scopeLabel}
          value={filters.scope}
          onChange={onScope}
          data={[
            { value: 'all', label: 'All environments' },
            { value: 'current', label: environmentName },
          ]}
        />
      </div>
      <Select
        label="State"
        placeholder="Any state"
        w={180}
        data={CHANGE_REQUEST_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }))}
        value={filters.state}
        onChange={onState}
        clearable
      />
    </Group>
  );
}
