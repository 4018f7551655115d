import { useState } from 'react';
import { Select, TagsInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Controller, useWatch } from 'react-hook-form';
import { normaliseIssueKey, normaliseTag, type Maintainer } from '@vexil/core';
import { useMembers } from '../../../entities/team/api/get-members';
import { useTags } from '../../../entities/features/api/get-tags';
import { firstErrorMessage, type SettingsControl } from './settings-values';

const SEARCH_DEBOUNCE_MS = 250;

/** Entries as the server will store them, at once: normalised, blanks and repeats dropped. */
function normalised(values: string[], normalise: (value: string) => string): string[] {
  return [...new Set(values.map(normalise).filter((value) => value !== ''))];
}

type FieldProps = { control: SettingsControl; disabled: boolean };

/** Tags, with suggestions from the project's tags as the user types. */
export function TagsField({ control, disabled, projectKey }: FieldProps & { projectKey: string }) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const tags = useTags(projectKey, query, !disabled);
  return (
    <Controller
      control={control}
      name="tags"
      render={({ field, fieldState }) => (
        <TagsInput
          label="Tags"
          description="Lowercase words joined by dashes; press Enter or comma to add one"
          placeholder={disabled ? undefined : 'Add a tag'}
          data={tags.data ?? []}
          searchValue={search}
          onSearchChange={setSearch}
          splitChars={[',']}
          clearable={!disabled}
          disabled={disabled}
          error={firstErrorMessage(fieldState.error)}
          value={field.value ?? []}
          onChange={(values) => field.onChange(normalised(values, normaliseTag))}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}

/** The maintainer: one of the organisation's members, or nobody. */
export function MaintainerField({ control, disabled, current }: FieldProps & { current: Maintainer | null }) {
  const chosen = useWatch({ control, name: 'maintainerId' });
  const [search, setSearch] = useState('');
  const options = new Map<string, string>();
  if (current) options.set(current.id, current.name);
  // Searching for the chosen member's own name (what the box shows) would hide everyone else.
  const chosenLabel = chosen ? options.get(chosen) : undefined;
  const [query] = useDebouncedValue(search === chosenLabel ? '' : search.trim(), SEARCH_DEBOUNCE_MS);
  const members = useMembers(query, !disabled);
  for (const member of members.data ?? []) options.set(member.id, member.name);
  const data = [...options].map(([value, label]) => ({ value, label }));
  return (
    <Controller
      control={control}
      name="maintainerId"
      render={({ field, fieldState }) => (
        <Select
          label="Maintainer"
          description="Who looks after this feature"
          placeholder={disabled ? 'None' : 'Choose a member'}
          data={data}
          searchable
          clearable={!disabled}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={members.isFetching ? 'Searching…' : 'No member found'}
          disabled={disabled}
          error={fieldState.error?.message}
          value={field.value ?? null}
          onChange={(value) => field.onChange(value)}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}

/** Issue-tracker keys such as ABC-123; the server links them. */
export function IssueKeysField({ control, disabled }: FieldProps) {
  return (
    <Controller
      control={control}
      name="jiraIssueKeys"
      render={({ field, fieldState }) => (
        <TagsInput
          label="Issue-tracker keys"
          description="Such as ABC-123; press Enter or comma to add one"
          placeholder={disabled ? undefined : 'Add an issue key'}
          splitChars={[',']}
          clearable={!disabled}
          disabled={disabled}
          error={firstErrorMessage(fieldState.error)}
          value={field.value ?? []}
          onChange={(values) => field.onChange(normalised(values, normaliseIssueKey))}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
