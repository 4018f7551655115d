import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  can,
  createFeatureForm,
  denialOf,
  normaliseFeatureKey,
  normaliseIssueKey,
  type CreateFeatureForm,
  type Feature,
} from '@vexil/core';
import { CONNECTION_FAILED_MESSAGE, hasErrorCode } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import {
  applyFieldErrors,
  FormFailure,
  formFailureMessage,
  PermissionNotice,
} from '../../../components/form-failure';
import { useCreateFeature } from '../../../entities/features/api/save-feature';
import {
  featureKeyAsTyped,
  keyTakenMessage,
  useKeyField,
  useNewFeatureKey,
} from '../../../entities/features/api/check-feature-key';
import { adminPath, projectFeaturePath } from '../../../lib/paths';
import { KeyTakenError } from '../../../components/key-taken-error';
import { ProjectPicker } from './project-picker';

/** What the page adds to core's refusal, for users who may not create features (docs/product.md §6). */
export const EDITOR_RIGHTS_HINT = 'Ask an organisation admin for editor rights.';

// Server field names that belong to one of the form's fields.
/** The server's field names, as this form calls them. */
const SERVER_FIELDS: Readonly<Record<string, keyof CreateFeatureForm>> = {
  name: 'name',
  key: 'key',
  projectKey: 'projectKey',
  jiraIssueKey: 'jiraIssueKey',
  jiraIssueKeys: 'jiraIssueKey',
  'jiraIssueKeys.0': 'jiraIssueKey',
};

/**
 * /features/create (docs/product.md §2 "Create feature page", §5): project (async picker, `?project=` preselects it),
 * name, a key that follows the name until edited and is made unique in the project, and an optional issue
 * key (`?issueKey=` prefills it). The key shown is the key created: a typed key is normalised as typed
 * and a taken one is refused, never changed behind the user's back. Success: "{name} saved." and the
 * new feature in the environment of its project the user last worked in (see lib/current-environment).
 */
export function CreateFeaturePage() {
  const { principalUser, projects } = useSession();
  // A custom role may allow creating features in some projects only: the form opens when one allows it.
  const pageDenial = projects.some((p) => can(principalUser, 'create', { type: 'feature', projectId: p.id }))
    ? null
    : denialOf(principalUser, 'create', { type: 'feature' });
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const create = useCreateFeature();
  const [keyEdited, setKeyEdited] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // docs/product.md §8 "Feature limit": the plan's refusal (code `limit_reached`) comes with an upgrade link.
  const [limitReached, setLimitReached] = useState(false);

  const requestedProject = searchParams.get('project');
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
    defaultValues: {
      projectKey: projects.some((project) => project.key === requestedProject)
        ? (requestedProject ?? '')
        : '',
      name: '',
      key: '',
      jiraIssueKey: normaliseIssueKey(searchParams.get('issueKey') ?? ''),
    },
  });

  // The key follows the name (docs/product.md §5), suffixed when the chosen project already has it.
  const name = useWatch({ control, name: 'name' });
  const projectKey = useWatch({ control, name: 'projectKey' });
  const key = useWatch({ control, name: 'key' });
  const keyField = useKeyField({ getValues, setValue, setError, setFocus }, isSubmitted);
  const chosen = projects.find((p) => p.key === projectKey);
  const denial =
    pageDenial ??
    (chosen ? denialOf(principalUser, 'create', { type: 'feature', projectId: chosen.id }) : null);
  const { taken, mayCreate } = useNewFeatureKey({
    projectKey: projectKey || null,
    name: name ?? '',
    key: key ?? '',
    keyEdited,
    field: keyField,
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    if (!(await mayCreate(values.projectKey, values.key))) return;
    let saved: Feature;
    try {
      saved = await create.mutateAsync({
        projectKey: values.projectKey,
        name: values.name,
        key: values.key,
        jiraIssueKeys: values.jiraIssueKey ? [values.jiraIssueKey] : [],
      });
    } catch (error) {
      applyFieldErrors(error, SERVER_FIELDS, setError);
      setFailure(formFailureMessage(error, CONNECTION_FAILED_MESSAGE));
      setLimitReached(hasErrorCode(error, 'limit_reached'));
      return;
    }
    notifySuccess(`${saved.name} saved.`);
    // The project feature address opens it in the environment the user last worked in there.
    await navigate(projectFeaturePath(saved.projectKey, saved.key));
  });

  const disabled = pageDenial !== null;
  return (
    <Container size={600} px={0}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Create feature</Title>
          <Text c="dimmed" mt={4}>
            A new feature starts off in every environment, with the variants On and Off.
          </Text>
        </div>
        <Paper withBorder radius="md" p="xl">
          <form onSubmit={onSubmit} noValidate aria-label="Create feature">
            <Stack gap="md">
              {denial ? (
                <PermissionNotice>{`${denial.message} ${EDITOR_RIGHTS_HINT}`}</PermissionNotice>
              ) : null}
              <FormFailure message={failure}>
                {limitReached ? (
                  <>
                    {' '}
                    <Anchor component={Link} to={adminPath('billing')} inherit>
                      Upgrade your plan
                    </Anchor>
                  </>
                ) : null}
              </FormFailure>
              <Controller
                control={control}
                name="projectKey"
                render={({ field, fieldState }) => (
                  <ProjectPicker
                    value={field.value || null}
                    onChange={(next) => field.onChange(next ?? '')}
                    onBlur={field.onBlur}
                    name={field.name}
                    knownProjects={projects}
                    error={fieldState.error?.message}
                    disabled={disabled}
                    required
                  />
                )}
              />
              <Controller
                control={control}
                name="name"
                render={({ field, fieldState }) => (
                  <TextInput
                    label="Name"
                    placeholder="New checkout"
                    required
                    disabled={disabled}
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
                    description="What your code asks the SDK for. It follows the name until you edit it."
                    required
                    disabled={disabled}
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
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    {...field}
                    onChange={(event) => {
                      setKeyEdited(true);
                      field.onChange(featureKeyAsTyped(event.currentTarget.value));
                    }}
                    onBlur={() => {
                      field.onChange(normaliseFeatureKey(field.value));
                      field.onBlur();
                    }}
                  />
                )}
              />
              <Controller
                control={control}
                name="jiraIssueKey"
                render={({ field, fieldState }) => (
                  <TextInput
                    label="Issue key"
                    description="Jira issue key, e.g. ABC-123"
                    placeholder="ABC-123"
                    disabled={disabled}
                    error={fieldState.error?.message}
                    {...field}
                    value={field.value ?? ''}
                    onBlur={() => {
                      field.onChange(normaliseIssueKey(field.value ?? ''));
                      field.onBlur();
                    }}
                  />
                )}
              />
              <Group justify="flex-end" gap="sm" mt="xs">
                <Button variant="default" component={Link} to="/">
                  Cancel
                </Button>
                <Button type="submit" loading={isSubmitting} disabled={denial !== null}>
                  Create Feature
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Stack>
    </Container>
  );
}
