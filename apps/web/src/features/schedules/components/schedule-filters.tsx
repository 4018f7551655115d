import { Group, Select, Switch, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { SCHEDULE_STATES, type ScheduleState } from '@vexil/core';
import { SCHEDULE_STATE_LABELS } from '../../../lib/schedule-labels';

/** The page's filters, kept in the address so that a reload or a link keeps them. */
export type ScheduleFilters = {
  /** Part of a feature's name or key, any case. */
  feature: string;
  environmentKey: string | null;
  state: ScheduleState | null;
  /** The latest finished schedules too. */
  finished: boolean;
};

const isState = (value: string | null): value is ScheduleState =>
  value !== null && (SCHEDULE_STATES as readonly string[]).includes(value);

/** Whether any filter narrows what the page shows. */
export function filtering(filters: ScheduleFilters): boolean {
  return filters.feature.trim() !== '' || filters.environmentKey !== null || filters.state !== null;
}

/** `?feature=…&environment=…&state=…&finished=true`. */
export function useScheduleFilters(environmentKeys: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const environment = params.get('environment');
  const state = params.get('state');
  const filters: ScheduleFilters = {
    feature: params.get('feature') ?? '',
    environmentKey: environment !== null && environmentKeys.includes(environment) ? environment : null,
    state: isState(state) ? state : null,
    finished: params.get('finished') === 'true',
  };
  // One update for several filters: each call starts from the address as it is now.
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
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
    setFeature: (value: string) => set({ feature: value }),
    setEnvironment: (value: string | null) => set({ environment: value }),
    setState: (value: string | null) => set({ state: value }),
    setFinished: (value: boolean) => set({ finished: value ? 'true' : null }),
    /** Every filter that narrows the list back to none (Show finished stays as it is). */
    clear: () => set({ feature: null, environment: null, state: null }),
  };
}

export type ScheduleFilterBarProps = {
  filters: ScheduleFilters;
  environments: readonly { key: string; name: string }[];
  onFeature: (value: string) => void;
  onEnvironment: (value: string | null) => void;
  onState: (value: string | null) => void;
  onFinished: (value: boolean) => void;
};

/** Feature (text), environment, state and Show finished. */
export function ScheduleFilterBar({
  filters,
  environments,
  onFeature,
  onEnvironment,
  onState,
  onFinished,
}: ScheduleFilterBarProps) {
  return (
    <Group gap="md" align="flex-end" role="search" aria-label="Filter the schedules">
      <TextInput
        label="Feature"
        placeholder="Name or key"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={filters.feature}
        onChange={(event) => onFeature(event.currentTarget.value)}
        w={{ base: '100%', xs: 220 }}
      />
      <Select
        label="Environment"
        placeholder="All environments"
        data={environments.map((environment) => ({ value: environment.key, label: environment.name }))}
        value={filters.environmentKey}
        onChange={onEnvironment}
        clearable
        w={{ base: '100%', xs: 200 }}
      />
      <Select
        label="State"
        placeholder="Any state"
        data={SCHEDULE_STATES.map((state) => ({ value: state, label: SCHEDULE_STATE_LABELS[state] }))}
        value={filters.state}
        onChange={onState}
        clearable
        w={{ base: '100%', xs: 180 }}
      />
      <Switch
        label="Show finished"
        checked={filters.finished}
        onChange={(event) => onFinished(event.currentTarget.checked)}
        mb={8}
      />
    </Group>
  );
}
