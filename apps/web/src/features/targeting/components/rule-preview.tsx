import { useId, useState } from 'react';
import {
  ActionIcon,
  Autocomplete,
  Button,
  Card,
  Group,
  NumberInput,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconUserQuestion, IconX } from '@tabler/icons-react';
import {
  BUILT_IN_TARGETS,
  evaluate,
  type EvaluableControl,
  type Evaluation,
  type Target,
  type TargetType,
  type Variant,
} from '@vexil/core';
import { targetName } from './operator-labels';

type AttributeValue = string | number;

export type RulePreviewProps = {
  /** The editor's current (unsaved) rules. */
  control: EvaluableControl;
  variants: readonly Pick<Variant, 'key' | 'name'>[];
  targets: readonly Target[];
  /** The attributes the rules test, in order of first use. */
  usedTargets: readonly string[];
  targetedCount: number;
  typeOf: (target: string) => TargetType;
};

/** Why the engine chose the variant, in words: "rule 2 matched (split)". */
export function reasonText({ reason, ruleIndex }: Evaluation, targetedCount: number): string {
  const byRule = ruleIndex !== null && ruleIndex < targetedCount;
  switch (reason) {
    case 'DISABLED':
      return 'targeting is off';
    case 'TARGETING_MATCH':
      return `rule ${(ruleIndex ?? 0) + 1} matched`;
    case 'SPLIT':
      return byRule ? `rule ${ruleIndex + 1} matched (split)` : 'no rule matched, everyone else (split)';
    case 'DEFAULT':
      return 'no rule matched, everyone else';
    case 'NO_MATCH':
      return 'no rule matched';
    case 'ERROR':
      return 'the rules could not be read';
  }
}

/** An attribute as an SDK would send it: numbers as numbers, a comma-separated text as a list. */
function attributeOf(value: AttributeValue, type: TargetType): unknown {
  if (typeof value === 'number') return value;
  if (type !== 'date' && value.includes(',')) {
    return value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  }
  return value;
}

let lastRow = 0;

/**
 * "Try a user" (issue "SDK API" item 6): a user id and attributes, and the variant core's evaluate()
 * gives that user under the rules as they are on screen, saved or not. It updates as either changes.
 */
export function RulePreview({
  control,
  variants,
  targets,
  usedTargets,
  targetedCount,
  typeOf,
}: RulePreviewProps) {
  const titleId = useId();
  const [userId, setUserId] = useState('');
  const [values, setValues] = useState<Record<string, AttributeValue>>({});
  const [extra, setExtra] = useState<{ row: number; name: string }[]>([]);
  const shown = usedTargets.filter((key) => !(key in BUILT_IN_TARGETS));
  const rows = [
    ...shown.map((name) => ({ row: -1, name, fixed: true })),
    ...extra.map((item) => ({ ...item, fixed: false })),
  ];

  const attributes: Record<string, unknown> = {};
  for (const { name } of rows) {
    const value = values[name];
    if (name !== '' && value !== undefined && value !== '')
      attributes[name] = attributeOf(value, typeOf(name));
  }
  const result = evaluate(control, { id: userId, attributes }, new Date());
  const variantName = variants.find((variant) => variant.key === result.variant)?.name ?? result.variant;
  const setValue = (name: string, value: AttributeValue) => setValues((all) => ({ ...all, [name]: value }));

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconUserQuestion size={20} aria-hidden />
          <Title order={3} fz="md" id={titleId}>
            Try a user
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          See what a user would get with the rules as they are now, before you save.
        </Text>
        <TextInput
          label="User id"
          placeholder="e.g. user-42"
          value={userId}
          onChange={(e) => setUserId(e.currentTarget.value)}
        />
        {rows.map(({ row, name, fixed }) => {
          const type = typeOf(name);
          const label = fixed ? targetName(name, targets) : 'Value';
          const value = values[name] ?? '';
          return (
            <Group key={fixed ? `t:${name}` : `x:${row}`} gap="xs" align="flex-end" wrap="nowrap">
              {fixed ? null : (
                <Autocomplete
                  label="Attribute"
                  placeholder="name"
                  data={targets.map((target) => target.key)}
                  value={name}
                  onChange={(next) =>
                    setExtra((all) => all.map((item) => (item.row === row ? { ...item, name: next } : item)))
                  }
                  style={{ flex: 1 }}
                />
              )}
              {type === 'number' ? (
                <NumberInput
                  label={label}
                  value={value}
                  onChange={(next) => setValue(name, next)}
                  decimalSeparator="."
                  style={{ flex: 1 }}
                />
              ) : (
                <TextInput
                  label={label}
                  placeholder={
                    type === 'date'
                      ? 'YYYY-MM-DD'
                      : type === 'segment'
                        ? 'segment keys, comma-separated'
                        : undefined
                  }
                  value={String(value)}
                  onChange={(event) => setValue(name, event.currentTarget.value)}
                  style={{ flex: 1 }}
                />
              )}
              {fixed ? null : (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  mb={2}
                  aria-label={`Remove attribute ${name || row}`}
                  onClick={() => setExtra((all) => all.filter((item) => item.row !== row))}
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          );
        })}
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => {
              lastRow += 1;
              setExtra((all) => [...all, { row: lastRow, name: '' }]);
            }}
          >
            Add attribute
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Several values: separate them with commas. The current date and hour (UTC) come from this browser’s
          clock.
        </Text>
        <Paper
          withBorder
          radius="md"
          p="sm"
          bg="var(--mantine-color-blue-light)"
          role="status"
          aria-live="polite"
          aria-label="Preview result"
        >
          <Text size="sm">
            Serves <strong>{variantName}</strong> — {reasonText(result, targetedCount)}
          </Text>
        </Paper>
      </Stack>
    </Card>
  );
}
