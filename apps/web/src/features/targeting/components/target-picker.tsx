import { useState } from 'react';
import {
  Badge,
  Group,
  Select,
  Text,
  defaultOptionsFilter,
  type ComboboxItem,
  type ComboboxItemGroup,
  type OptionsFilter,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { BUILT_IN_TARGETS, type Target, type TargetType } from '@vexil/core';
import { BUILT_IN_TARGET_KEYS, BUILT_IN_TARGET_NAMES, TARGET_TYPE_LABELS } from './operator-labels';

const CREATE = '\u0000create-target';
const CREATE_GROUP = 'Something else';

type Option = ComboboxItem & { targetKey?: string; type?: TargetType };

export type TargetPickerProps = {
  value: string;
  targets: readonly Target[];
  error?: string | undefined;
  /** Null when the user may not create targets: the picker then offers none. */
  onCreate: ((name: string) => Promise<Target | null>) | null;
  /** `type` is given for a target just created, which the project's list may not hold yet. */
  onChange: (targetKey: string, type?: TargetType) => void;
  onBlur?: () => void;
};

function optionsOf(
  targets: readonly Target[],
  value: string,
  canCreate: boolean,
): ComboboxItemGroup<Option>[] {
  const declared: Option[] = targets.map((target) => ({
    value: target.key,
    label: target.name,
    targetKey: target.key,
    type: target.type,
  }));
  // A rule may test an attribute nobody declared (it is then text): keep it choosable.
  const known = new Set([...targets.map((target) => target.key), ...BUILT_IN_TARGET_KEYS]);
  if (value !== '' && !known.has(value)) {
    declared.push({ value, label: value, targetKey: value, type: 'string' });
  }
  const groups: ComboboxItemGroup<Option>[] = [
    {
      group: 'Built in',
      items: BUILT_IN_TARGET_KEYS.map((key) => ({
        value: key,
        label: BUILT_IN_TARGET_NAMES[key] ?? key,
        targetKey: key,
        type: BUILT_IN_TARGETS[key],
      })),
    },
  ];
  if (declared.length > 0) groups.unshift({ group: 'Project targets', items: declared });
  if (canCreate)
    groups.push({ group: CREATE_GROUP, items: [{ value: CREATE, label: 'Create a new target…' }] });
  return groups;
}

/** The search filter, except that "Create a new target…" is always offered. */
const keepCreate: OptionsFilter = (input) => {
  const others = input.options.filter((option) => !('group' in option && option.group === CREATE_GROUP));
  const create = input.options.filter((option) => 'group' in option && option.group === CREATE_GROUP);
  return [...(defaultOptionsFilter({ ...input, options: others }) as typeof others), ...create];
};

/**
 * The target of a condition: the project's targets, the attributes every SDK adds, and "Create a new
 * target…", which opens the New target modal (pre-filled with what was typed) and selects the result.
 */
export function TargetPicker({ value, targets, error, onCreate, onChange, onBlur }: TargetPickerProps) {
  const [search, setSearch] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  // Controlled, so that choosing "Create a new target…" closes the list for certain: it must not
  // stay open under (or, once the modal closes, over) the New target modal and the other fields.
  const [opened, setOpened] = useState(false);
  const data = optionsOf(targets, value, onCreate !== null);
  const selected = data.flatMap((group) => group.items).find((item) => item.value === value);

  const create = async () => {
    if (!onCreate) return;
    const typed = search !== null && search !== selected?.label ? search : '';
    setOpened(false);
    setCreating(true);
    try {
      const created = await onCreate(typed);
      if (created) onChange(created.key, created.type);
    } finally {
      setCreating(false);
      setSearch(null);
    }
  };

  return (
    <Select
      label="Target"
      placeholder="Choose an attribute"
      searchable
      // Focus alone (a new rule focuses its target) leaves the list closed over the rule; a click,
      // typing or the arrow keys open it.
      openOnFocus={false}
      allowDeselect={false}
      data={data}
      value={value === '' ? null : value}
      searchValue={search ?? selected?.label ?? ''}
      onSearchChange={setSearch}
      dropdownOpened={opened && !creating}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => {
        setOpened(false);
        setSearch(null);
      }}
      onBlur={onBlur}
      filter={keepCreate}
      disabled={creating}
      error={error}
      nothingFoundMessage="No target matches"
      maxDropdownHeight={320}
      comboboxProps={{ width: 280, position: 'bottom-start' }}
      onChange={(next) => {
        if (next === CREATE) void create();
        else if (next) onChange(next);
      }}
      renderOption={({ option }) => {
        const item = option as Option;
        if (item.value === CREATE) {
          return (
            <Group gap={6} wrap="nowrap">
              <IconPlus size={14} aria-hidden />
              <Text size="sm" fw={500}>
                {item.label}
              </Text>
            </Group>
          );
        }
        return (
          <Group gap={6} justify="space-between" wrap="nowrap" style={{ flex: 1 }}>
            <div style={{ minWidth: 0 }}>
              <Text size="sm" truncate>
                {item.label}
              </Text>
              {item.targetKey && item.targetKey !== item.label ? (
                <Text size="xs" c="dimmed" ff="monospace" truncate>
                  {item.targetKey}
                </Text>
              ) : null}
            </div>
            {item.type ? (
              <Badge size="xs" variant="light" color="gray">
                {TARGET_TYPE_LABELS[item.type]}
              </Badge>
            ) : null}
          </Group>
        );
      }}
    />
  );
}
