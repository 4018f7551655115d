import { ActionIcon, Box, Group, Select, SimpleGrid, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { OPERATORS_BY_TARGET_TYPE, type Operator } from '@vexil/core';
import { ConditionValueInput } from './condition-value-input';
import type { EditorEnv } from './editor-env';
import { operatorText } from './operator-labels';
import classes from './targeting.module.css';
import { TargetPicker } from './target-picker';
import { withOperator, withTarget, type ConditionDraft } from './targeting-draft';
import { fieldKey } from './targeting-validation';

export type ConditionRowProps = {
  env: EditorEnv;
  condition: ConditionDraft;
  /** 1-based, for labels. */
  number: number;
  canRemove: boolean;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
};

/** One condition: target, operator (only those its type allows, docs/product.md §5) and a value input by type. */
export function ConditionRow({ env, condition, number, canRemove, onChange, onRemove }: ConditionRowProps) {
  const type = env.typeOf(condition.target);
  const chosen = condition.target !== '';
  // Until a target is chosen only the target asks for attention; the other inputs are disabled.
  const error = (part: 'target' | 'operator' | 'values') =>
    part === 'target' || chosen ? env.errors.get(fieldKey.condition(condition.id, part)) : undefined;
  const touch = (part: 'target' | 'operator' | 'values', by: 'change' | 'blur' = 'blur') =>
    env.touch(fieldKey.condition(condition.id, part), by);
  const change = (part: 'target' | 'operator' | 'values', next: ConditionDraft) => {
    touch(part, 'change');
    onChange(next);
  };
  return (
    <Group role="group" aria-label={`Condition ${number}`} align="flex-start" gap="xs" wrap="nowrap">
      <SimpleGrid
        cols={{ base: 1, sm: 3 }}
        spacing="sm"
        verticalSpacing="xs"
        style={{ flex: 1, minWidth: 0 }}
      >
        <TargetPicker
          value={condition.target}
          targets={env.targets}
          error={error('target')}
          onCreate={env.onCreateTarget}
          onChange={(target, created) =>
            change(
              'target',
              withTarget(condition, target, (key) => (created && key === target ? created : env.typeOf(key))),
            )
          }
          onBlur={() => touch('target')}
        />
        <Select
          label="Operator"
          placeholder={chosen ? 'Choose' : 'Choose a target first'}
          disabled={!chosen}
          allowDeselect={false}
          data={OPERATORS_BY_TARGET_TYPE[type].map((operator) => ({
            value: operator,
            label: operatorText(operator, type),
          }))}
          value={condition.operator}
          onChange={(operator) =>
            operator && change('operator', withOperator(condition, operator as Operator))
          }
          onBlur={() => touch('operator')}
          error={error('operator')}
        />
        <ConditionValueInput
          projectKey={env.projectKey}
          target={condition.target}
          type={type}
          operator={condition.operator}
          values={condition.values}
          segments={env.segments}
          disabled={!chosen}
          error={error('values')}
          onChange={(values) => change('values', { ...condition, values })}
          onBlur={() => touch('values')}
        />
      </SimpleGrid>
      <Box pt={25}>
        <Tooltip label={canRemove ? 'Remove condition' : 'A rule needs a condition; remove the rule instead'}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            className={classes.quietIcon}
            aria-label={`Remove condition ${number}`}
            disabled={!canRemove}
            onClick={onRemove}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Box>
    </Group>
  );
}
