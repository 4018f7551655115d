// Over 400 lines on purpose: one form — the variant, the steps editor, the start and cut-off, and the
// splits at each step — whose fields share one state and one check (core's rampStepsSchema); split
// apart, each part would take the whole state as props.
import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  isProductionEnvironment,
  MAX_LENGTH,
  MAX_RAMP_STEPS,
  rampProblem,
  rampSplits,
  rampStepsSchema,
  SCHEDULE_MESSAGES,
  type Feature,
  type ProjectSummary,
  type RampStep,
  type Rule,
  type ScheduleInput,
} from '@vexil/core';
import { applyFieldErrors, fieldOnlyFailure, FormFailure } from '../../../components/form-failure';
import { errorReason } from '../../../components/load-error';
import { throughRequestMessage, useScheduleThroughRequest } from './schedule-change-request';
import { ScheduleFormActions } from './schedule-form-actions';
import { useCreateSchedule } from '../../../entities/schedules/api/create-schedule';
import { isApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { fromLocalInput, HOLD_UNITS, type HoldUnit } from '../../../lib/schedule-labels';

/** A step as typed: numbers, or '' while a field is empty. */
export type StepDraft = {
  id: number;
  coverage: number | string;
  hold: number | string;
  unit: HoldUnit;
  minExposures: number | string;
  approval: boolean;
};

let lastStepId = 0;
function stepDraft(coverage: number, hold: number | string = 1, unit: HoldUnit = 'hours'): StepDraft {
  lastStepId += 1;
  return { id: lastStepId, coverage, hold, unit, minExposures: '', approval: false };
}

/** Where a new ramp starts: 10 %, 50 % and 100 %, each held for an hour. */
export function defaultSteps(): StepDraft[] {
  return [stepDraft(10), stepDraft(50), stepDraft(100)];
}

/** A number field's value as a number: NaN when empty, which core's schema words as "must be a number". */
const numberOf = (value: number | string) => (typeof value === 'number' ? value : NaN);

/** The steps as the API takes them, with the hold in seconds; optional parts only when set. */
export function stepsOf(drafts: readonly StepDraft[]): RampStep[] {
  return drafts.map((draft) => {
    const unit = HOLD_UNITS.find((candidate) => candidate.value === draft.unit) ?? HOLD_UNITS[0];
    return {
      coverage: numberOf(draft.coverage),
      holdSeconds: numberOf(draft.hold) * unit.seconds,
      ...(draft.minExposures === '' ? {} : { minExposures: numberOf(draft.minExposures) }),
      ...(draft.approval ? { approval: true } : {}),
    };
  });
}

/** Errors by field: `variantKey`, `steps` (the list), `steps.{i}.coverage|holdSeconds|minExposures`, `startAt`, `cutoffAt`. */
type Errors = Record<string, string>;

/** What core (and so the server) says about the steps, by field. */
export function stepErrors(steps: readonly RampStep[]): Errors {
  const errors: Errors = {};
  for (const issue of rampStepsSchema.safeParse(steps).error?.issues ?? []) {
    const key = ['steps', ...issue.path.map(String)].join('.');
    errors[key] ??= issue.message;
  }
  // Core checks the order only once every step reads; the user sees it at once, beside other errors.
  steps.forEach((step, i) => {
    const before = steps[i - 1]?.coverage;
    if (
      before !== undefined &&
      Number.isFinite(step.coverage) &&
      Number.isFinite(before) &&
      step.coverage <= before
    )
      errors[`steps.${i}.coverage`] ??= SCHEDULE_MESSAGES.increasing;
  });
  return errors;
}

/** The server's field error for a field of the form: `steps.1.coverage`, `variantKey`, `startAt`… */
const FORM_FIELDS =
  /^(variantKey|startAt|cutoffAt|comment|steps(\.\d+\.(coverage|holdSeconds|minExposures))?)$/;

export type RampEditorModalProps = {
  feature: Pick<Feature, 'key' | 'name' | 'projectKey' | 'variants'>;
  environment: ProjectSummary['environments'][number];
  /** The rule's place in the control's rules as saved (the default rule is the last). */
  ruleIndex: number;
  /** The rule as saved, whose splits the ramp starts from. */
  rule: Rule;
  /** "Rule 2", "Everyone else". */
  ruleName: string;
  onClose: () => void;
};

/**
 * The ramp editor (docs/adr/0025-scheduler.md): which variant's share of the rule grows, the steps
 * (coverage, hold, minimum exposures, approval; 10 → 50 → 100 % held an hour each to start with), an
 * optional start and cut-off, and a preview of the rule's splits at each step as core computes them
 * (the variant first, the others sharing the rest as before). Checked with core's messages as the
 * server checks it, from the first try to start it on; a refusal keeps the form and shows the server's
 * field errors where they belong.
 */
export function RampEditorModal({
  feature,
  environment,
  ruleIndex,
  rule,
  ruleName,
  onClose,
}: RampEditorModalProps) {
  const create = useCreateSchedule();
  const through = useScheduleThroughRequest({
    projectKey: feature.projectKey,
    featureName: feature.name,
    environmentName: environment.name,
  });
  const variantName = (key: string) => feature.variants.find((variant) => variant.key === key)?.name ?? key;
  const [variantKey, setVariantKey] = useState<string | null>(
    () => feature.variants.find((variant) => rampProblem(rule, variant.key) === null)?.key ?? null,
  );
  const [drafts, setDrafts] = useState<StepDraft[]>(defaultSteps);
  const [startAt, setStartAt] = useState('');
  const [cutoffAt, setCutoffAt] = useState('');
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const steps = stepsOf(drafts);
  const start = fromLocalInput(startAt);
  const cutoff = fromLocalInput(cutoffAt);
  const checked: Errors = { ...stepErrors(steps) };
  if (!variantKey) checked.variantKey = 'Variant is required';
  else {
    const problem = rampProblem(rule, variantKey);
    if (problem) checked.variantKey = problem;
  }
  if (startAt.trim() !== '' && !start) checked.startAt = 'Enter a date and time.';
  if (cutoffAt.trim() !== '' && !cutoff) checked.cutoffAt = 'Enter a date and time.';
  if (cutoff && Date.parse(cutoff) <= Date.parse(start ?? new Date().toISOString()))
    checked.cutoffAt = SCHEDULE_MESSAGES.cutoffBeforeStart;
  // Core's errors show from the first try on, and then as the fields change; the server's until edited.
  const errors: Errors = { ...serverErrors, ...(tried ? checked : {}) };

  const edit = (id: number, change: Partial<StepDraft>) => {
    setDrafts((current) => current.map((draft) => (draft.id === id ? { ...draft, ...change } : draft)));
    setServerErrors({});
  };
  const addStep = () =>
    setDrafts((current) => {
      const last = current.at(-1);
      const coverage = typeof last?.coverage === 'number' ? Math.min(100, last.coverage + 10) : 100;
      return [...current, stepDraft(coverage, last?.hold ?? 1, last?.unit ?? 'hours')];
    });
  const removeStep = (id: number) => {
    setDrafts((current) => current.filter((draft) => draft.id !== id));
    setServerErrors({});
  };

  /** The ramp as `POST …/schedules` takes it; null while the form has errors. */
  const inputOf = (): ScheduleInput | null => {
    setTried(true);
    setFailure(null);
    if (Object.keys(checked).length > 0 || !variantKey) return null;
    return {
      kind: 'ramp',
      featureKey: feature.key,
      environmentKey: environment.key,
      ruleIndex,
      variantKey,
      steps,
      ...(start ? { startAt: start } : {}),
      ...(cutoff ? { cutoffAt: cutoff } : {}),
      ...(comment.trim() ? { comment: comment.trim() } : {}),
    };
  };

  const submit = async () => {
    const input = inputOf();
    if (!input) return;
    try {
      await create.mutateAsync({ projectKey: feature.projectKey, schedule: input });
    } catch (error) {
      if (through.caught(error)) {
        setFailure(throughRequestMessage(error));
        return;
      }
      const mapping: Record<string, string> = {};
      for (const { field } of isApiError(error) ? error.errors : []) {
        if (FORM_FIELDS.test(field)) mapping[field] = field;
      }
      const found: Errors = {};
      const saidByFields = applyFieldErrors(error, mapping, (field, { message }) => {
        found[field] = message;
      });
      setServerErrors(found);
      setFailure(fieldOnlyFailure(error, saidByFields));
      return;
    }
    notifySuccess(
      `${start ? 'Ramp scheduled' : 'Ramp started'}: ${variantName(variantKey ?? '')} in ${ruleName} grows to ${steps.at(-1)?.coverage ?? 100} %.`,
    );
    onClose();
  };

  /** The ramp the environment refused, put into a change request instead. */
  const addToRequest = async () => {
    const input = inputOf();
    if (!input) return;
    try {
      await through.add(input);
    } catch (error) {
      setFailure(errorReason(error) || 'The ramp was not added to a change request. Please try again.');
      return;
    }
    onClose();
  };

  const preview = [
    { label: 'Now', coverage: null as number | null, splits: rule.variantSplits },
    ...steps.map((step, index) => {
      const valid =
        variantKey !== null && Number.isInteger(step.coverage) && step.coverage >= 1 && step.coverage <= 100;
      return {
        label: `Step ${index + 1}`,
        coverage: valid ? step.coverage : null,
        splits: valid ? rampSplits(rule.variantSplits, variantKey, step.coverage) : null,
      };
    }),
  ];
  const shareOf = (splits: readonly { variantKey: string; split: number }[], key: string) =>
    splits.find((split) => split.variantKey === key)?.split ?? 0;

  return (
    <Modal opened onClose={onClose} title={`Ramp ${ruleName}`} centered size="xl">
      <form
        noValidate
        aria-label={`Ramp ${ruleName}`}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The variant’s share of {ruleName} grows step by step in {environment.name}. A step goes on once
            its hold has passed, then its minimum exposures, then its approval.
          </Text>
          <FormFailure message={failure} />
          {isProductionEnvironment(environment) ? (
            <Alert color="orange" variant="light" title="Production environment">
              {environment.name} is a production environment: each step reaches live users when it is made.
            </Alert>
          ) : null}
          <Select
            label="Variant"
            description="The variant whose share grows."
            required
            allowDeselect={false}
            data={feature.variants.map((variant) => ({ value: variant.key, label: variant.name }))}
            value={variantKey}
            onChange={(value) => {
              setVariantKey(value);
              setServerErrors({});
            }}
            error={errors.variantKey}
            maw={360}
          />

          <div>
            <Title order={3} fz="md">
              Steps
            </Title>
            <Text size="sm" c="dimmed">
              Each step serves the variant to more of the rule’s users than the step before.
            </Text>
          </div>
          <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Steps">
            {drafts.map((draft, index) => {
              const field = (name: string) => errors[`steps.${index}.${name}`];
              return (
                <Paper
                  key={draft.id}
                  component="li"
                  withBorder
                  radius="md"
                  p="sm"
                  role="group"
                  aria-label={`Step ${index + 1}`}
                >
                  <Group justify="space-between" mb={4}>
                    <Text size="sm" fw={600}>
                      Step {index + 1}
                    </Text>
                    <Tooltip label="Remove step">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove step ${index + 1}`}
                        disabled={drafts.length === 1}
                        onClick={() => removeStep(draft.id)}
                      >
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                  <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" verticalSpacing="xs">
                    <NumberInput
                      label="Coverage"
                      suffix=" %"
                      min={1}
                      max={100}
                      allowDecimal={false}
                      allowNegative={false}
                      clampBehavior="none"
                      value={draft.coverage}
                      onChange={(value) => edit(draft.id, { coverage: value })}
                      error={field('coverage')}
                    />
                    <NumberInput
                      label="Hold"
                      min={1}
                      allowDecimal={false}
                      allowNegative={false}
                      clampBehavior="none"
                      value={draft.hold}
                      onChange={(value) => edit(draft.id, { hold: value })}
                      error={field('holdSeconds')}
                    />
                    <Select
                      label="Unit"
                      aria-label={`Hold unit of step ${index + 1}`}
                      allowDeselect={false}
                      data={HOLD_UNITS.map(({ value, label }) => ({ value, label }))}
                      value={draft.unit}
                      onChange={(value) => value && edit(draft.id, { unit: value as HoldUnit })}
                    />
                    <NumberInput
                      label="Min exposures"
                      placeholder="None"
                      min={1}
                      allowDecimal={false}
                      allowNegative={false}
                      thousandSeparator=","
                      value={draft.minExposures}
                      onChange={(value) => edit(draft.id, { minExposures: value })}
                      error={field('minExposures')}
                    />
                    <Checkbox
                      label="Approval"
                      description="Someone approves going on"
                      mt={{ base: 0, sm: 26 }}
                      checked={draft.approval}
                      onChange={(event) => edit(draft.id, { approval: event.currentTarget.checked })}
                    />
                  </SimpleGrid>
                </Paper>
              );
            })}
          </Stack>
          {errors.steps ? (
            <Text size="sm" c="red" role="alert">
              {errors.steps}
            </Text>
          ) : null}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={addStep}
              disabled={drafts.length >= MAX_RAMP_STEPS}
            >
              Add step
            </Button>
          </Group>

          <div>
            <Title order={3} fz="md">
              Preview
            </Title>
            <Text size="sm" c="dimmed">
              What {ruleName} serves now and at each step.
            </Text>
          </div>
          <Table.ScrollContainer minWidth={320}>
            <Table withTableBorder striped aria-label="Splits at each step">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Step</Table.Th>
                  {feature.variants.map((variant) => (
                    <Table.Th key={variant.key} scope="col">
                      {variant.name}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.map((row) => (
                  <Table.Tr key={row.label}>
                    <Table.Th scope="row" fw={500}>
                      {row.label}
                    </Table.Th>
                    {feature.variants.map((variant) => (
                      <Table.Td key={variant.key}>
                        {row.splits ? `${shareOf(row.splits, variant.key)} %` : '—'}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>

          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              type="datetime-local"
              label="Start at"
              description="Optional: the first step then, in your time zone. Now when empty."
              value={startAt}
              onChange={(event) => {
                setStartAt(event.currentTarget.value);
                setServerErrors({});
              }}
              error={errors.startAt}
            />
            <TextInput
              type="datetime-local"
              label="Cut-off"
              description="Optional: a ramp not complete by then pauses where it is."
              value={cutoffAt}
              onChange={(event) => {
                setCutoffAt(event.currentTarget.value);
                setServerErrors({});
              }}
              error={errors.cutoffAt}
            />
          </SimpleGrid>
          <TextInput
            label="Comment"
            description="Optional: why, kept with each version the ramp writes."
            maxLength={MAX_LENGTH.comment}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            error={errors.comment}
          />
          <ScheduleFormActions
            label={startAt.trim() ? 'Schedule ramp' : 'Start ramp'}
            submitting={create.isPending}
            throughRequest={{
              offered: through.refusal !== null,
              pending: through.isPending,
              add: () => void addToRequest(),
            }}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
