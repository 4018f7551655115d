import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { closeAllModals, closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import {
  normaliseProjectKey,
  projectInput,
  projectKeyFromName,
  type Project,
  type ProjectInput,
} from '@vexil/core';
import { useSaveProject } from '../../../entities/projects/api/save-project';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { CONNECTIVITY_MESSAGE } from './connectivity';
import { adminPath } from '../../../lib/paths';

export type ProjectFormProps = {
  /** The project to update; without it the form creates one. */
  project?: Pick<Project, 'id' | 'name' | 'key'>;
  /** Keys already in use, so a derived key gets a numeric suffix instead of colliding. */
  existingKeys: readonly string[];
};

/**
 * Spec §2 "Create/Update Project", §4, §5: name and key. On create the key follows the name (a short
 * abbreviation, suffixed when taken) until the user edits the key; the key is normalised as typed. On
 * update the key is read-only. Success: "Project saved.", the project's admin page, all modals closed.
 */
export function ProjectForm({ project, existingKeys }: ProjectFormProps) {
  const navigate = useNavigate();
  const save = useSaveProject();
  const [keyEdited, setKeyEdited] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(projectInput),
    defaultValues: { id: project?.id, name: project?.name ?? '', key: project?.key ?? '' },
  });

  const followName = (name: string) => {
    if (project || keyEdited) return;
    const key = name.trim() === '' ? '' : projectKeyFromName(name, existingKeys);
    setValue('key', key, { shouldValidate: isSubmitted });
  };

  const onSubmit = handleSubmit(async (values: ProjectInput) => {
    setFailure(null);
    let saved: Project;
    try {
      saved = await save.mutateAsync(values);
    } catch (error) {
      applyFieldErrors(error, ['name', 'key'] as const, setError);
      setFailure(formFailureMessage(error, CONNECTIVITY_MESSAGE));
      return;
    }
    notifySuccess('Project saved.');
    closeAllModals();
    await navigate(adminPath('projects', saved.key));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={project ? 'Update Project' : 'Create Project'}>
      <Stack gap="md">
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              placeholder="Web shop"
              data-autofocus
              required
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                field.onChange(event.currentTarget.value);
                followName(event.currentTarget.value);
              }}
            />
          )}
        />
        <Controller
          control={control}
          name="key"
          render={({ field, fieldState }) => (
            <TextInput
              label="Key"
              description={
                project
                  ? 'The key cannot be changed: SDKs and URLs use it.'
                  : 'Up to 5 lowercase letters or digits. It follows the name until you edit it.'
              }
              required={!project}
              readOnly={Boolean(project)}
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                setKeyEdited(true);
                field.onChange(normaliseProjectKey(event.currentTarget.value));
              }}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {project ? 'Update Project' : 'Create Project'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the Create/Update Project modal on top of the modal stack. */
export function openProjectForm(props: ProjectFormProps): string {
  return showModal({
    title: props.project ? 'Update Project' : 'Create Project',
    children: <ProjectForm {...props} />,
  });
}
