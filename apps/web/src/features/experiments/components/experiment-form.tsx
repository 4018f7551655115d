import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { hasErrorCode } from '../../../lib/api-client';
import { closeModal, confirm, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { adminPath } from '../../../lib/paths';
import {
  experimentForm,
  isProductionEnvironment,
  type Experiment,
  type ExperimentForm as ExperimentFormValues,
  type ExperimentMode,
  type Variant,
} from '@vexil/core';
import { useSaveExperiment } from '../../../entities/experiments/api/save-experiment';
import { featureQueryOptions } from '../../../entities/features/api/get-feature';
import { applyFieldErrors, formFailureMessage } from '../../../components/form-failure';
import { FeaturePicker, GoalField, type FeatureChoice } from './experiment-pickers';
import { experimentProductionWarning } from './experiment-toggle';

export { PICKER_DEBOUNCE_MS } from './experiment-pickers';

/** The fields the server may name in its errors, as the form names them. */
const FIELDS = [
  'name',
  'description',
  'featureId',
  'control',
  'variation',
  'goalKey',
  'mode',
  'enabled',
] as const;

export const MODE_OPTIONS: { value: ExperimentMode; label: string; description: string }[] = [
  {
    value: 'fixed',
    label: 'Fixed: read once at the end',
    description:
      'Decide how long it runs, then read the result once at the end. Looking every day and stopping at the first winner finds winners that are not real.',
  },
  {
    value: 'sequential',
    label: 'Sequential: safe to check daily',
    description:
      'The confidence stays valid however often you look, so you may stop as soon as a winner shows. It needs more users to find one.',
  },
];

/** Why what an experiment measures is read-only once it has started (the server refuses a change too). */
export const DESIGN_LOCKED_MESSAGE =
  'The feature, variants, goal and mode cannot change once the experiment has started: its results would mix users counted under different designs. Create a new experiment instead.';

type FormInput = z.input<typeof experimentForm>;

export type ExperimentFormProps = {
  projectKey: string;
  environment: { key: string; name: string; production: boolean; tags?: readonly string[] };
  /** The experiment to edit; without it the form creates one in the environment. */
  experiment?: Experiment;
};

function valuesOf(projectKey: string, environmentKey: string, experiment?: Experiment): FormInput {
  return {
    projectKey,
    environmentKey,
    name: experiment?.name ?? '',
    description: experiment?.description ?? '',
    featureId: experiment?.featureId ?? '',
    control: experiment?.control ?? '',
    variation: experiment?.variation ?? '',
    goalKey: experiment?.goalKey ?? '',
    mode: experiment?.mode ?? 'fixed',
    enabled: experiment?.enabled ?? false,
  };
}

/**
 * The variants an experiment on a feature with `variants` starts with: "off" (what users get today)
 * as the control and "on" as the alternate when the feature has them, else its first two variants.
 */
export function defaultVariants(variants: readonly Pick<Variant, 'key'>[]): {
  control: string;
  variation: string;
} {
  const keys = variants.map((variant) => variant.key);
  const control = keys.includes('off') ? 'off' : (keys[0] ?? '');
  const variation =
    keys.includes('on') && control !== 'on' ? 'on' : (keys.find((key) => key !== control) ?? '');
  return { control, variation };
}

/** "Checkout (new-checkout)", or the key alone when the name is the key. */
function variantLabel(variant: Pick<Variant, 'key' | 'name'>): string {
  return variant.name && variant.name !== variant.key ? `${variant.name} (${variant.key})` : variant.key;
}

/**
 * docs/product.md §3 "Experiment", §5 "Experiment": name, description, the feature, its control and
 * alternate variants (the feature's own; choosing another feature starts again from its variants),
 * the goal key (suggested from the goals SDKs reported, cleaned like a feature key), the mode and
 * the enabled switch. The server's errors show on their fields and above them, and everything typed
 * stays; success says "{name} saved." and closes the modal. Switching an experiment on or off in
 * production asks first, as the list's switch does.
 *
 * Rendered in the modal stack, outside the session: everything it needs comes through props.
 */
export function ExperimentForm({ projectKey, environment, experiment }: ExperimentFormProps) {
  const save = useSaveExperiment();
  const [failure, setFailure] = useState<{ message: string; limitReached: boolean } | null>(null);
  const [choice, setChoice] = useState<FeatureChoice | null>(
    experiment
      ? {
          id: experiment.featureId,
          key: experiment.feature?.key ?? experiment.featureKey,
          name: experiment.feature?.name ?? experiment.featureKey,
        }
      : null,
  );
  // Variants of a feature chosen from the list come with it; those of the edited experiment's load.
  const loaded = useQuery({
    ...featureQueryOptions(projectKey, choice?.key ?? ''),
    enabled: Boolean(choice && !choice.variants),
  });
  const variants = choice?.variants ?? loaded.data?.variants;
  const started = Boolean(experiment?.startDate);

  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<FormInput, unknown, ExperimentFormValues>({
    resolver: zodResolver(experimentForm),
    defaultValues: valuesOf(projectKey, environment.key, experiment),
  });
  const controlKey = useWatch({ control, name: 'control' });
  const variationKey = useWatch({ control, name: 'variation' });

  // A variant the feature no longer has (or that has not loaded yet) still shows as chosen.
  const variantOptions = (chosen: string | undefined) => {
    const options = (variants ?? []).map((variant) => ({ value: variant.key, label: variantLabel(variant) }));
    if (chosen && !options.some((option) => option.value === chosen)) {
      options.unshift({ value: chosen, label: chosen });
    }
    return options;
  };

  const chooseFeature = (next: FeatureChoice) => {
    if (next.id === choice?.id) return;
    setChoice(next);
    const options = { shouldValidate: isSubmitted, shouldDirty: true };
    setValue('featureId', next.id, options);
    const defaults = defaultVariants(next.variants ?? []);
    setValue('control', defaults.control, options);
    setValue('variation', defaults.variation, options);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const wasEnabled = experiment?.enabled ?? false;
    if (values.enabled !== wasEnabled && isProductionEnvironment(environment)) {
      const confirmed = await confirm({
        title: 'Production environment',
        message: experimentProductionWarning(values.name, environment.name),
        confirmLabel: values.enabled ? 'Start experiment' : 'Stop experiment',
      });
      if (!confirmed) return;
    }
    try {
      await save.mutateAsync(experiment ? { ...values, id: experiment.id } : values);
    } catch (error) {
      applyFieldErrors(error, FIELDS, setError);
      setFailure({
        message: formFailureMessage(error),
        // Not on the plan (403 `plan_required`), or its limit reached (400 `limit_reached`).
        limitReached: hasErrorCode(error, 'plan_required') || hasErrorCode(error, 'limit_reached'),
      });
      return;
    }
    notifySuccess(`${values.name} saved.`);
    closeModal();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={experiment ? 'Edit Experiment' : 'New Experiment'}>
      <Stack gap="md">
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            role="alert"
          >
            {failure.message}
            {failure.limitReached ? (
              <>
                {' '}
                <Anchor component={Link} to={adminPath('billing')} onClick={() => closeModal()} inherit>
                  Upgrade your plan
                </Anchor>
              </>
            ) : null}
          </Alert>
        ) : null}
        <TextInput
          label="Name"
          placeholder="One-page checkout"
          data-autofocus
          required
          error={errors.name?.message}
          {...register('name')}
        />
        <Textarea
          label="Description"
          placeholder="What the alternate changes, and what you expect"
          rows={2}
          error={errors.description?.message}
          {...register('description')}
        />
        {started ? (
          <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden="true" />}>
            {DESIGN_LOCKED_MESSAGE}
          </Alert>
        ) : null}
        <Controller
          control={control}
          name="featureId"
          render={({ field, fieldState }) => (
            <FeaturePicker
              projectKey={projectKey}
              choice={choice}
              onChoose={chooseFeature}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              disabled={started}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Controller
            control={control}
            name="control"
            render={({ field, fieldState }) => (
              <Select
                label="Control variant"
                description="What users get today."
                placeholder={choice ? 'Choose a variant' : 'Choose a feature first'}
                required
                disabled={!choice || started}
                data={variantOptions(controlKey)}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                allowDeselect={false}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="variation"
            render={({ field, fieldState }) => (
              <Select
                label="Alternate variant"
                description="What it is compared with."
                placeholder={choice ? 'Choose a variant' : 'Choose a feature first'}
                required
                disabled={!choice || started}
                data={variantOptions(variationKey)}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                allowDeselect={false}
                error={fieldState.error?.message}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="goalKey"
          render={({ field, fieldState }) => (
            <GoalField
              projectKey={projectKey}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              disabled={started}
            />
          )}
        />
        <Controller
          control={control}
          name="mode"
          render={({ field, fieldState }) => (
            <Radio.Group
              label="Mode"
              description="How the confidence is computed."
              value={field.value ?? 'fixed'}
              onChange={(value) => field.onChange(value as ExperimentMode)}
              error={fieldState.error?.message}
            >
              <Stack gap="sm" mt="xs">
                {MODE_OPTIONS.map((option) => (
                  <Radio
                    key={option.value}
                    value={option.value}
                    label={option.label}
                    description={option.description}
                    disabled={started}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        <Controller
          control={control}
          name="enabled"
          render={({ field, fieldState }) => (
            <Switch
              label="Enabled"
              description={
                experiment?.endDate
                  ? 'Switching it on runs the finished experiment again.'
                  : 'While on, the users SDKs expose to the variants and those who reach the goal count.'
              }
              color="teal"
              checked={field.value ?? false}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save experiment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Opens the New Experiment (or, given an experiment, Edit Experiment) modal on top of the modal stack.
 * A click beside it does not close it, so a half-filled form is not lost by accident.
 */
export function openExperimentForm(props: ExperimentFormProps): string {
  return showModal({
    title: props.experiment ? 'Edit Experiment' : 'New Experiment',
    size: 'lg',
    closeOnClickOutside: false,
    children: <ExperimentForm {...props} />,
  });
}
