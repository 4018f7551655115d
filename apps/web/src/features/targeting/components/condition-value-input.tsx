import '@mantine/dates/styles.css';
import { useState } from 'react';
import { MultiSelect, NumberInput, TagsInput, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { MULTI_VALUE_OPERATORS, type Operator, type Segment, type TargetType } from '@vexil/core';
import { useTargetValues } from '../../../entities/targets/api/get-target-values';
import type { ConditionValue } from './targeting-draft';

export type ConditionValueInputProps = {
  projectKey: string;
  target: string;
  type: TargetType;
  operator: Operator | null;
  values: ConditionValue[];
  segments: readonly Segment[];
  error?: string | undefined;
  disabled?: boolean;
  onChange: (values: ConditionValue[]) => void;
  onBlur?: () => void;
};

const asText = (value: ConditionValue | undefined) => (value === undefined ? '' : String(value));

/** Several text values, with suggestions from the values rules use and SDK users sent. */
function ValuesInput({
  projectKey,
  target,
  values,
  error,
  disabled,
  onChange,
  onBlur,
}: ConditionValueInputProps) {
  const [search, setSearch] = useState('');
  const suggestions = useTargetValues(projectKey, target, search, !disabled);
  return (
    <TagsInput
      label="Values"
      placeholder={values.length === 0 ? 'Type a value, then Enter' : undefined}
      description="Press Enter or a comma after each value."
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      data={suggestions.data ?? []}
      value={values.map(asText)}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={onChange}
      onBlur={onBlur}
      splitChars={[',']}
      clearable
      disabled={disabled}
      error={error}
      maxDropdownHeight={240}
    />
  );
}

/** The environment's segments by name; a key no segment has any more stays visible so it can be removed. */
function SegmentsInput({ values, segments, error, disabled, onChange, onBlur }: ConditionValueInputProps) {
  const keys = values.map(asText);
  const data = [
    ...segments.map((segment) => ({ value: segment.key, label: segment.name })),
    ...keys
      .filter((key) => !segments.some((segment) => segment.key === key))
      .map((key) => ({ value: key, label: `${key} (unknown)` })),
  ];
  return (
    <MultiSelect
      label="Segments"
      placeholder={keys.length === 0 ? 'Choose segments' : undefined}
      data={data}
      value={keys}
      onChange={onChange}
      onBlur={onBlur}
      searchable
      hidePickedOptions
      nothingFoundMessage={
        segments.length === 0 ? 'This environment has no segments yet' : 'No segment matches'
      }
      disabled={disabled}
      error={error}
    />
  );
}

/**
 * The value part of a condition, by its target's type (docs/product.md §5 "Rule values"): text, several texts for
 * `in`/`notIn`, a regular expression for `matches`, a number, an ISO date, or segments.
 */
export function ConditionValueInput(props: ConditionValueInputProps) {
  const { type, operator, values, error, disabled, onChange, onBlur } = props;
  const first = values[0];
  if (type === 'segment') return <SegmentsInput {...props} />;
  if (type === 'number') {
    return (
      <NumberInput
        label="Value"
        placeholder="A number"
        value={typeof first === 'number' ? first : asText(first)}
        onChange={(value) => onChange(value === '' ? [] : [value])}
        decimalSeparator="."
        onBlur={onBlur}
        disabled={disabled}
        error={error}
      />
    );
  }
  if (type === 'date') {
    return (
      <DateInput
        label="Date"
        placeholder="YYYY-MM-DD"
        valueFormat="YYYY-MM-DD"
        value={typeof first === 'string' && first !== '' ? first : null}
        onChange={(value) => onChange(value ? [value.slice(0, 10)] : [])}
        leftSection={<IconCalendar size={16} aria-hidden />}
        clearable
        onBlur={onBlur}
        disabled={disabled}
        error={error}
      />
    );
  }
  if (operator && MULTI_VALUE_OPERATORS.includes(operator)) return <ValuesInput {...props} />;
  const pattern = operator === 'matches';
  return (
    <TextInput
      label={pattern ? 'Pattern' : 'Value'}
      description={pattern ? 'A regular expression, e.g. ^beta- or @example\\.com$' : undefined}
      placeholder={pattern ? '^beta-' : undefined}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      value={asText(first)}
      onChange={(event) => onChange([event.currentTarget.value])}
      onBlur={onBlur}
      disabled={disabled}
      error={error}
      styles={pattern ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
    />
  );
}
