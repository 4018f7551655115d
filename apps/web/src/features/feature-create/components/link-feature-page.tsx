import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Container,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
  type ComboboxItem,
  type OptionsFilter,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLink, IconTicket } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  ISSUE_KEY_PATTERN,
  can,
  denialOf,
  linkFeatureForm,
  normaliseIssueKey,
  type Feature,
  type LinkFeatureForm,
} from '@vexil/core';
import { CONNECTION_FAILED_MESSAGE } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useLinkFeature } from '../../../entities/features/api/link-feature';
import { useProjectFeatures } from '../../../entities/features/api/get-project-features';
import {
  applyFieldErrors,
  FormFailure,
  formFailureMessage,
  PermissionNotice,
} from '../../../components/form-failure';
import { projectFeaturePath } from '../../../lib/paths';
import { ProjectPicker, SEARCH_DEBOUNCE_MS } from './project-picker';
import { EDITOR_RIGHTS_HINT } from './create-feature-page';

type FeatureChoice = { id: string; name: string };

const byNameOrKey: OptionsFilter = ({ options, search }) => {
  const text = search.trim().toLowerCase();
  if (text === '') return options;
  return options.filter((option) => {
    const item = option as ComboboxItem & { featureKey?: string };
    return item.label.toLowerCase().includes(text) || (item.featureKey ?? '').toLowerCase().includes(text);
  });
};

type FeaturePickerProps = {
  projectKey: string | null;
  value: string | null;
  onChange: (featureId: string | null) => void;
  onBlur: () => void;
  error: string | undefined;
};

/**
 * The Feature select of the link form: the chosen project's features matching the typed text
 * (GET /api/v1/projects/{p}/features?query=). Mounted afresh for each project, so a new project starts
 * with an empty search.
 */
function FeaturePicker({ projectKey, value, onChange, onBlur, error }: FeaturePickerProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<FeatureChoice | null>(null);
  const chosen = value !== null && picked?.id === value ? picked : undefined;
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const query = debounced.trim() === '' || debounced === chosen?.name ? '' : debounced.trim();
  const features = useProjectFeatures(projectKey, query);

  const data = useMemo(() => {
    const options = (features.data ?? []).map((feature) => ({
      value: feature.id,
      label: feature.name,
      featureKey: feature.key,
    }));
    if (chosen && !options.some((option) => option.value === chosen.id)) {
      options.unshift({ value: chosen.id, label: chosen.name, featureKey: '' });
    }
    return options;
  }, [features.data, chosen]);

  return (
    <Select
      label="Feature"
      placeholder={projectKey ? 'Search features' : 'Choose a project first'}
      searchable
      required
      disabled={!projectKey}
      data={data}
      value={value}
      onChange={(next, option) => {
        setPicked(next === null ? null : { id: next, name: option.label });
        onChange(next);
      }}
      onBlur={onBlur}
      searchValue={search}
      onSearchChange={setSearch}
      filter={byNameOrKey}
      allowDeselect={false}
      nothingFoundMessage={features.isFetching ? 'Searching…' : 'No features found'}
      error={error}
      renderOption={({ option }) => (
        <Group justify="space-between" wrap="nowrap" gap="sm" w="100%">
          <Text size="sm" truncate>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" truncate>
            {(option as ComboboxItem & { featureKey?: string }).featureKey}
          </Text>
        </Group>
      )}
    />
  );
}

/**
 * /features/link?issueKey=ABC-123 (docs/product.md §2 "Link feature page", §5 "Link form"): choose a project, then
 * one of its features; changing the project clears the feature. Link Feature needs create permission.
 * Success: the linked feature's page. Failure: the reason in the form.
 */
export function LinkFeaturePage() {
  const { principalUser, projects } = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const link = useLinkFeature();
  const [failure, setFailure] = useState<string | null>(null);

  const requestedIssue = normaliseIssueKey(searchParams.get('issueKey') ?? '');
  // A usable key from the address is fixed; otherwise the user types one.
  const fixedIssue = ISSUE_KEY_PATTERN.test(requestedIssue) ? requestedIssue : null;
  const requestedProject = searchParams.get('project');

  const {
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(linkFeatureForm),
    defaultValues: {
      projectKey: projects.some((project) => project.key === requestedProject)
        ? (requestedProject ?? '')
        : '',
      featureId: '',
      jiraIssueKey: requestedIssue,
    },
  });

  const projectKey = useWatch({ control, name: 'projectKey' }) ?? '';
  // The server links features for those who may create them in the feature's project, and refuses
  // others in these words.
  const chosen = projects.find((p) => p.key === projectKey);
  const denial = chosen
    ? denialOf(principalUser, 'create', { type: 'feature', projectId: chosen.id })
    : projects.some((p) => can(principalUser, 'create', { type: 'feature', projectId: p.id }))
      ? null
      : denialOf(principalUser, 'create', { type: 'feature' });
  const allowed = denial === null;

  const onSubmit = handleSubmit(async (values: LinkFeatureForm) => {
    setFailure(null);
    let linked: Feature;
    try {
      linked = await link.mutateAsync({ featureId: values.featureId, jiraIssueKey: values.jiraIssueKey });
    } catch (error) {
      applyFieldErrors(error, ['featureId', 'jiraIssueKey'] as const, setError);
      setFailure(formFailureMessage(error, CONNECTION_FAILED_MESSAGE));
      return;
    }
    notifySuccess(`${linked.name} is linked to ${values.jiraIssueKey}.`);
    await navigate(projectFeaturePath(linked.projectKey, linked.key));
  });

  return (
    <Container size={600} px={0}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Link feature</Title>
          <Text c="dimmed" mt={4}>
            Link an issue to an existing feature, so the issue and the feature point to each other.
          </Text>
        </div>
        <Paper withBorder radius="md" p="xl">
          <form onSubmit={onSubmit} noValidate aria-label="Link feature">
            <Stack gap="md">
              {denial ? (
                <PermissionNotice>{`${denial.message} ${EDITOR_RIGHTS_HINT}`}</PermissionNotice>
              ) : null}
              <FormFailure message={failure} />
              {fixedIssue ? (
                <Group gap="xs" wrap="nowrap">
                  <ThemeIcon variant="light" radius="sm" size="md" aria-hidden="true">
                    <IconTicket size={16} />
                  </ThemeIcon>
                  <Text size="sm" fw={500}>
                    Issue:{' '}
                    <Text span inherit ff="monospace">
                      {fixedIssue}
                    </Text>
                  </Text>
                </Group>
              ) : (
                <Controller
                  control={control}
                  name="jiraIssueKey"
                  render={({ field, fieldState }) => (
                    <TextInput
                      label="Issue key"
                      description="Jira issue key, e.g. ABC-123"
                      placeholder="ABC-123"
                      required
                      error={fieldState.error?.message}
                      {...field}
                      onBlur={() => {
                        field.onChange(normaliseIssueKey(field.value));
                        field.onBlur();
                      }}
                    />
                  )}
                />
              )}
              <Controller
                control={control}
                name="projectKey"
                render={({ field, fieldState }) => (
                  <ProjectPicker
                    value={field.value || null}
                    onChange={(next) => {
                      if ((next ?? '') !== field.value) {
                        // docs/product.md §5: a feature belongs to one project; a new project clears it.
                        setValue('featureId', '', { shouldValidate: isSubmitted });
                      }
                      field.onChange(next ?? '');
                    }}
                    onBlur={field.onBlur}
                    name={field.name}
                    knownProjects={projects}
                    error={fieldState.error?.message}
                    required
                  />
                )}
              />
              <Controller
                control={control}
                name="featureId"
                render={({ field, fieldState }) => (
                  <FeaturePicker
                    key={projectKey}
                    projectKey={projectKey || null}
                    value={field.value || null}
                    onChange={(next) => field.onChange(next ?? '')}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                  />
                )}
              />
              <Group justify="flex-end" gap="sm" mt="xs">
                <Button variant="default" component={Link} to="/">
                  Cancel
                </Button>
                <Button
                  type="submit"
                  loading={isSubmitting}
                  disabled={!allowed}
                  leftSection={<IconLink size={16} aria-hidden="true" />}
                >
                  Link Feature
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Stack>
    </Container>
  );
}
