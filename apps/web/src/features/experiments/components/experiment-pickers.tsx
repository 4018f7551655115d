import { useMemo, useState } from 'react';
import {
  Autocomplete,
  Code,
  Group,
  Select,
  Text,
  type ComboboxItem,
  type OptionsFilter,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { normaliseGoalKey, type Variant } from '@vexil/core';
import { useGoals } from '../../../entities/experiments/api/get-goals';
import { useProjectFeatures } from '../../../entities/features/api/get-project-features';

/*
 * The two searching fields of the experiment form (experiment-form.tsx): the feature it compares the
 * variants of, and the goal key it counts.
 */

/** The search of the feature and goal pickers is sent this long after the last keystroke. */
export const PICKER_DEBOUNCE_MS = 250;

/** The feature an experiment compares the variants of, with its variants when they came with it. */
export type FeatureChoice = { id: string; key: string; name: string; variants?: readonly Variant[] };

const byNameOrKey: OptionsFilter = ({ options, search }) => {
  const text = search.trim().toLowerCase();
  if (text === '') return options;
  return options.filter((option) => {
    const item = option as ComboboxItem & { featureKey?: string };
    return item.label.toLowerCase().includes(text) || (item.featureKey ?? '').toLowerCase().includes(text);
  });
};

/**
 * The Feature select: the project's features matching the typed text
 * (GET /api/v1/projects/{p}/features?query=), each with its key.
 */
export function FeaturePicker({
  projectKey,
  choice,
  onChoose,
  onBlur,
  error,
  disabled,
}: {
  projectKey: string;
  choice: FeatureChoice | null;
  onChoose: (choice: FeatureChoice) => void;
  onBlur: () => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const [search, setSearch] = useState(choice?.name ?? '');
  const [debounced] = useDebouncedValue(search, PICKER_DEBOUNCE_MS);
  const query = debounced.trim() === '' || debounced === choice?.name ? '' : debounced.trim();
  const features = useProjectFeatures(projectKey, query);

  const options = useMemo(() => {
    const found = (features.data ?? []).map((feature) => ({
      value: feature.id,
      label: feature.name,
      featureKey: feature.key,
    }));
    if (choice && !found.some((option) => option.value === choice.id)) {
      found.unshift({ value: choice.id, label: choice.name, featureKey: choice.key });
    }
    return found;
  }, [features.data, choice]);

  return (
    <Select
      label="Feature"
      description="The feature whose variants are compared."
      placeholder="Search features"
      searchable
      required
      disabled={disabled}
      data={options}
      value={choice?.id ?? null}
      onChange={(id) => {
        const feature = features.data?.find((candidate) => candidate.id === id);
        if (feature)
          onChoose({ id: feature.id, key: feature.key, name: feature.name, variants: feature.variants });
      }}
      onBlur={onBlur}
      searchValue={search}
      onSearchChange={setSearch}
      filter={byNameOrKey}
      allowDeselect={false}
      nothingFoundMessage={features.isFetching ? 'Searching…' : 'No features found'}
      error={error}
      renderOption={({ option }) => (
        <Group justify="space-between" wrap="nowrap" gap="sm" w="100%">
          <Text size="sm" truncate>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" truncate>
            {(option as ComboboxItem & { featureKey?: string }).featureKey}
          </Text>
        </Group>
      )}
    />
  );
}

/**
 * The Goal key field: free text, with the project's goals SDKs have reported as suggestions
 * (GET /api/v1/goals). Under it, the key as it is saved once cleaned (docs/product.md §5 "Experiment").
 */
export function GoalField({
  projectKey,
  value,
  onChange,
  onBlur,
  error,
  disabled,
}: {
  projectKey: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const [debounced] = useDebouncedValue(value.trim(), PICKER_DEBOUNCE_MS);
  const goals = useGoals(projectKey, debounced);
  const names = useMemo(() => new Map((goals.data ?? []).map((goal) => [goal.key, goal.name])), [goals.data]);
  const normalised = normaliseGoalKey(value);
  return (
    <Autocomplete
      label="Goal key"
      required
      disabled={disabled}
      placeholder="checkout-completed"
      description={
        normalised ? (
          <>
            Saved as <Code>{normalised}</Code>, the key your application reports with the SDK&apos;s goal
            call.
          </>
        ) : (
          "The key your application reports with the SDK's goal call when a user converts."
        )
      }
      data={[...names.keys()]}
      // The server already matched the typed text against keys and names.
      filter={({ options }) => options}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      error={error}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      renderOption={({ option }) => (
        <Group justify="space-between" wrap="nowrap" gap="sm" w="100%">
          <Text size="sm" ff="monospace" truncate>
            {option.value}
          </Text>
          {names.get(option.value) && names.get(option.value) !== option.value ? (
            <Text size="xs" c="dimmed" truncate>
              {names.get(option.value)}
            </Text>
          ) : null}
        </Group>
      )}
    />
  );
}
