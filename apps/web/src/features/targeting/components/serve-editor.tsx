import { useState } from 'react';
import { Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { rebalanceSplits, type Variant } from '@vexil/core';
import { withSplit, type ServeDraft } from './targeting-draft';

type SplitInputProps = {
  label: string;
  value: number;
  disabled?: boolean | undefined;
  onChange: (value: number) => void;
};

/** A percentage that may be empty while it is typed; it follows the rule's split otherwise. */
function SplitInput({ label, value, disabled, onChange }: SplitInputProps) {
  const [text, setText] = useState<number | string>(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  return (
    <NumberInput
      label={label}
      value={text}
      min={0}
      max={100}
      clampBehavior="strict"
      allowDecimal={false}
      allowNegative={false}
      suffix=" %"
      disabled={disabled}
      onChange={(next) => {
        setText(next);
        if (typeof next === 'number') onChange(next);
      }}
      onBlur={() => setText(value)}
    />
  );
}

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
 * adds up to 100 (editing one share rebalances the others, docs/product.md §5 "Splits").
 */
export function ServeEditor({ serve, variants, label, error, onChange }: ServeEditorProps) {
  const keys = variants.map((variant) => variant.key);
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
          onChange={(event) => onChange(withSplit(serve, event.currentTarget.checked, keys))}
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
                onChange={(value) =>
                  onChange({ ...serve, splits: rebalanceSplits(serve.splits, index, value) })
                }
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
