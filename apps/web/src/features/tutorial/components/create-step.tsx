import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Divider, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowRight, IconPlus } from '@tabler/icons-react';
import { createFeatureForm, denialOf, normaliseFeatureKey, type Feature, type Principal } from '@vexil/core';
import {
  applyFieldErrors,
  FormFailure,
  formFailureMessage,
  PermissionNotice,
} from '../../../components/form-failure';
import { KeyTakenError } from '../../../components/key-taken-error';
import {
  featureKeyAsTyped,
  keyTakenMessage,
  useKeyField,
  useNewFeatureKey,
} from '../../../entities/features/api/check-feature-key';
import { useProjectFeatures } from '../../../entities/features/api/get-project-features';
import { useCreateFeature } from '../../../entities/features/api/save-feature';
import { CONNECTION_FAILED_MESSAGE } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';

/** The name step 1 offers, so that the tutorial can go on with one press. */
export const SUGGESTED_FEATURE_NAME = 'My first feature';

export type CreateStepProps = {
  project: { id: string; key: string; name: string };
  user: Principal;
  /** The feature created or chosen: the tutorial goes on to step 2 with it. */
  onFeature: (featureKey: string) => void;
};

/**
 * Step 1, "Create a feature": a name and a key (following the name, made unique in the project, as on
 * the Create feature page), or one of the project's features. A feature exists in every environment
 * of its project, so one created here is in this environment too.
 */
export function CreateStep({ project, user, onFeature }: CreateStepProps) {
  const denial = denialOf(user, 'create', { type: 'feature', projectId: project.id });
  const existing = useProjectFeatures(project.key);
  const features = existing.data ?? [];

  return (
    <Stack gap="lg">
      <Text>
        A <strong>feature</strong> is a switch in your code: your application asks Vexil for it by its key,
        and Vexil answers on or off for each user. It belongs to {project.name} and exists in every one of its
        environments.
      </Text>
      <CreateFeatureForm project={project} denial={denial?.message ?? null} onCreated={onFeature} />
      {features.length > 0 ? (
        <>
          <Divider label="or" labelPosition="center" />
          <ChooseFeature features={features} onChoose={onFeature} />
        </>
      ) : null}
    </Stack>
  );
}

function CreateFeatureForm({
  project,
  denial,
  onCreated,
}: {
  project: CreateStepProps['project'];
  denial: string | null;
  onCreated: (featureKey: string) => void;
}) {
  const create = useCreateFeature();
  const [keyEdited, setKeyEdited] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    getValues,
    setError,
    setFocus,
    setValue,
    formState: { isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(createFeatureForm),
    defaultValues: { projectKey: project.key, name: SUGGESTED_FEATURE_NAME, key: '', jiraIssueKey: '' },
  });
  const name = useWatch({ control, name: 'name' });
  const key = useWatch({ control, name: 'key' });
  const keyField = useKeyField({ getValues, setValue, setError, setFocus }, isSubmitted);
  const { taken, mayCreate } = useNewFeatureKey({
    projectKey: project.key,
    name: name ?? '',
    key: key ?? '',
    keyEdited,
    field: keyField,
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    if (!(await mayCreate(project.key, values.key))) return;
    let saved: Feature;
    try {
      saved = await create.mutateAsync({
        projectKey: project.key,
        name: values.name,
        key: values.key,
        jiraIssueKeys: [],
      });
    } catch (error) {
      applyFieldErrors(error, ['name', 'key'] as const, setError);
      setFailure(formFailureMessage(error, CONNECTION_FAILED_MESSAGE));
      return;
    }
    notifySuccess(`${saved.name} saved.`);
    onCreated(saved.key);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create a feature">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Create a feature
        </Title>
        {denial ? (
          <PermissionNotice>{`${denial} Choose one of the project's features instead.`}</PermissionNotice>
        ) : null}
        <FormFailure message={failure} />
        <Group align="flex-start" gap="sm" grow preventGrowOverflow={false}>
          <Controller
            control={control}
            name="name"
            render={({ field, fieldState }) => (
              <TextInput
                label="Name"
                required
                disabled={denial !== null}
                error={fieldState.error?.message}
                {...field}
              />
            )}
          />
          <Controller
            control={control}
            name="key"
            render={({ field, fieldState }) => (
              <TextInput
                label="Key"
                description="What your code asks for."
                required
                disabled={denial !== null}
                error={
                  taken ? (
                    <KeyTakenError
                      message={keyTakenMessage(taken.key)}
                      freeKey={taken.freeKey}
                      onUse={keyField.set}
                    />
                  ) : (
                    fieldState.error?.message
                  )
                }
                {...field}
                onChange={(event) => {
                  setKeyEdited(true);
                  field.onChange(featureKeyAsTyped(event.currentTarget.value));
                }}
                onBlur={() => {
                  field.onChange(normaliseFeatureKey(field.value));
                  field.onBlur();
                }}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
            )}
          />
        </Group>
        <Group>
          <Button
            type="submit"
            loading={isSubmitting}
            disabled={denial !== null}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            Create feature
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ChooseFeature({
  features,
  onChoose,
}: {
  features: Feature[];
  onChoose: (featureKey: string) => void;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Use a feature you have
      </Title>
      <Group align="flex-end" gap="sm">
        <Select
          label="Feature"
          placeholder="Choose a feature"
          data={features.map((feature) => ({
            value: feature.key,
            label: `${feature.name} (${feature.key})`,
          }))}
          value={chosen}
          onChange={setChosen}
          searchable
          nothingFoundMessage="No feature matches"
          style={{ flex: '1 1 260px' }}
          comboboxProps={{ withinPortal: true }}
        />
        <Button
          variant="default"
          disabled={chosen === null}
          onClick={() => chosen && onChoose(chosen)}
          rightSection={<IconArrowRight size={16} aria-hidden="true" />}
        >
          Use this feature
        </Button>
      </Group>
    </Stack>
  );
}
