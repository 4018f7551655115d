import { useMemo, useState } from 'react';
import { Badge, Group, Select, Text, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { projectsQueryOptions } from '../../../entities/projects/api/get-projects';

/** How long typing pauses before the picker asks the server again. */
export const SEARCH_DEBOUNCE_MS = 250;

export type ProjectChoice = { key: string; name: string };

export type ProjectPickerProps = {
  /** The chosen project's key, or null. */
  value: string | null;
  onChange: (projectKey: string | null) => void;
  onBlur?: () => void;
  /** Projects already known (the session's), so a preselected project shows its name at once. */
  knownProjects?: readonly ProjectChoice[];
  error?: string | undefined;
  disabled?: boolean;
  required?: boolean;
  name?: string;
  label?: string;
};

// The server matches name or key; the typed text filters what is on screen the same way meanwhile.
const byNameOrKey: OptionsFilter = ({ options, search }) => {
  const text = search.trim().toLowerCase();
  if (text === '') return options;
  return options.filter((option) => {
    const item = option as ComboboxItem;
    return item.label.toLowerCase().includes(text) || item.value.toLowerCase().includes(text);
  });
};

/**
 * The "async project picker" of the Create feature and Link feature pages (docs/product.md §2): a searchable select
 * whose options come from GET /api/v1/projects?query= as the user types.
 */
export function ProjectPicker({
  value,
  onChange,
  onBlur,
  knownProjects = [],
  error,
  disabled,
  required,
  name,
  label = 'Project',
}: ProjectPickerProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<ProjectChoice | null>(null);
  const chosen =
    value === null
      ? undefined
      : picked?.key === value
        ? picked
        : knownProjects.find((project) => project.key === value);
  const selectedName = chosen?.name;
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // While the box shows the chosen project's name, the list offers every project, not just that one.
  const query = debounced.trim() === '' || debounced === selectedName ? '' : debounced.trim();
  const projects = useQuery({ ...projectsQueryOptions(query), placeholderData: keepPreviousData });

  const data = useMemo(() => {
    const options = (projects.data ?? []).map((project) => ({ value: project.key, label: project.name }));
    // The chosen project stays an option, so its name stays in the box whatever the last search found.
    if (chosen && !options.some((option) => option.value === chosen.key)) {
      options.unshift({ value: chosen.key, label: chosen.name });
    }
    return options;
  }, [projects.data, chosen]);

  return (
    <Select
      label={label}
      placeholder="Search projects"
      searchable
      required={required}
      disabled={disabled}
      name={name}
      data={data}
      value={value}
      onChange={(next, option) => {
        setPicked(next === null ? null : { key: next, name: option.label });
        onChange(next);
      }}
      onBlur={onBlur}
      searchValue={search}
      onSearchChange={setSearch}
      filter={byNameOrKey}
      allowDeselect={false}
      nothingFoundMessage={projects.isFetching ? 'Searching…' : 'No projects found'}
      error={error}
      renderOption={({ option }) => (
        <Group justify="space-between" wrap="nowrap" gap="sm" w="100%">
          <Text size="sm" truncate>
            {option.label}
          </Text>
          <Badge variant="light" color="gray" radius="sm" tt="none" ff="monospace" size="sm">
            {option.value}
          </Badge>
        </Group>
      )}
    />
  );
}
