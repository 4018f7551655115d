import { useState } from 'react';
import { Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { clampSplit, setSplit, type Variant } from '@vexil/core';
import { withSplit, type ServeDraft } from './targeting-draft';

type SplitInputProps = {
  label: string;
  value: number;
  disabled?: boolean | undefined;
  onChange: (value: number) => void;
};

/**
 * A percentage that may be empty (or a lone minus) while it is typed; it follows the rule's split
 * otherwise. What is typed out of range is clamped as it is typed: 150 shows 100, -5 shows 0. Shares
 * are whole numbers: a decimal (12.5) stays as typed while the field has the focus and counts as its
 * rounding (13), which the field shows on blur. The dot is not dropped, so 12.5 never reads as 125.
 */
function SplitInput({ label, value, disabled, onChange }: SplitInputProps) {
  const [text, setText] = useState<number | string>(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    // A decimal being typed stays as typed when the rule took its rounding.
    if (typeof text !== 'number' || clampSplit(text) !== value) setText(value);
  }
  const rounded = typeof text === 'number' && !Number.isInteger(text) ? clampSplit(text) : null;
  return (
    <NumberInput
      label={label}
      value={text}
      min={0}
      max={100}
      clampBehavior="none"
      suffix=" %"
      description={rounded === null ? undefined : `Counts as ${rounded} %`}
      inputWrapperOrder={['label', 'input', 'description']}
      disabled={disabled}
      onChange={(next) => {
        if (typeof next !== 'number') {
          setText(next);
          return;
        }
        const clamped = clampSplit(next);
        setText(Number.isInteger(next) || clamped !== Math.round(next) ? clamped : next);
        onChange(clamped);
      }}
      onBlur={() => setText(value)}
    />
  );
}

const shareOf = (serve: ServeDraft, variantKey: string) =>
  serve.splits.find((split) => split.variantKey === variantKey)?.split;

export type ServeEditorProps = {
  serve: ServeDraft;
  variants: readonly Pick<Variant, 'key' | 'name'>[];
  /** What the serve part is about, for its labels: "Rule 2", "Everyone else". */
  label: string;
  error?: string | undefined;
  onChange: (serve: ServeDraft) => void;
};

/**
 * What a rule serves: one variant to everyone it matches, or a split in whole percentages that always
 * adds up to 100 (docs/product.md §5 "Splits"). Editing one share rebalances the shares the user has not
 * set since the split was shown: a share they typed stays as typed while another makes room.
 */
export function ServeEditor({ serve, variants, label, error, onChange }: ServeEditorProps) {
  const keys = variants.map((variant) => variant.key);
  // The variants whose share the user set, the earliest first. A share that had to give way to a
  // later one is no longer as the user set it, and leaves the list.
  const [userSet, setUserSet] = useState<string[]>([]);
  const setShare = (index: number, value: number) => {
    const key = serve.splits[index]?.variantKey;
    if (key === undefined) return;
    const splits = setSplit(serve.splits, index, value, userSet);
    const kept = userSet.filter(
      (set) => set !== key && splits.find((s) => s.variantKey === set)?.split === shareOf(serve, set),
    );
    setUserSet([...kept, key]);
    onChange({ ...serve, splits });
  };
  const nameOf = (key: string) => variants.find((variant) => variant.key === key)?.name ?? key;
  const total = serve.splits.reduce((sum, split) => sum + split.split, 0);
  return (
    <Stack gap="xs" role="group" aria-label={`${label}: serve`}>
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" fw={600}>
          Serve
        </Text>
        <Switch
          label="Split"
          checked={serve.split}
          onChange={(event) => {
            setUserSet([]);
            onChange(withSplit(serve, event.currentTarget.checked, keys));
          }}
          disabled={variants.length < 2}
        />
      </Group>
      {serve.split ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: Math.min(4, Math.max(2, variants.length)) }} spacing="sm">
            {serve.splits.map((split, index) => (
              <SplitInput
                key={split.variantKey}
                label={nameOf(split.variantKey)}
                value={split.split}
                onChange={(value) => setShare(index, value)}
              />
            ))}
          </SimpleGrid>
          <Text size="xs" c={total === 100 ? 'dimmed' : 'red'} aria-live="polite">
            Total: {total} %
          </Text>
          <Text size="xs" c="dimmed">
            Users get the same variant every time: percentages are assigned by user id.
          </Text>
        </>
      ) : (
        <Select
          label="Variant"
          placeholder="Choose a variant"
          allowDeselect={false}
          data={variants.map((variant) => ({ value: variant.key, label: variant.name }))}
          value={serve.variantKey}
          onChange={(variantKey) => variantKey && onChange({ ...serve, variantKey })}
          maw={360}
        />
      )}
      {error ? (
        <Text size="sm" c="red">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
