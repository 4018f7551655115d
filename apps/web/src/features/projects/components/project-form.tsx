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
import { hasErrorCode } from '../../../lib/api-client';
import { useSaveProject } from '../../../entities/projects/api/save-project';
import { useReloadProjects } from '../../../entities/projects/api/get-projects';
import {
  applyFieldErrors,
  FormFailure,
  formFailureMessage,
  ReloadAction,
  useStaleReload,
} from '../../../components/form-failure';
import { CONNECTIVITY_MESSAGE } from './connectivity';
import { adminPath } from '../../../lib/paths';

export type ProjectFormProps = {
  /** The project to update; without it the form creates one. */
  project?: Pick<Project, 'id' | 'name' | 'key' | 'lastModifiedDate'>;
  /** Keys already in use, so a derived key gets a numeric suffix instead of colliding. */
  existingKeys: readonly string[];
};

/** When Reload finds the project gone. */
export const PROJECT_GONE_MESSAGE = 'This project no longer exists.';

/** The form's values: an update carries the project's version, which the save sends back. */
function valuesOf(project: ProjectFormProps['project']) {
  return {
    id: project?.id,
    name: project?.name ?? '',
    key: project?.key ?? '',
    lastModifiedDate: project?.lastModifiedDate,
  };
}

/**
 * docs/product.md §2 "Create/Update Project", §4, §5: name and key. On create the key follows the name (a short
 * abbreviation, suffixed when taken) until the user edits the key; the key is normalised as typed. On
 * update the key is read-only. Success: "Project saved.", the project's admin page, all modals closed.
 * An update refused because someone saved the project since (409 `stale_write`) offers Reload.
 */
export function ProjectForm({ project, existingKeys }: ProjectFormProps) {
  const navigate = useNavigate();
  const save = useSaveProject();
  const reloadProjects = useReloadProjects();
  const [keyEdited, setKeyEdited] = useState(false);
  const [failure, setFailure] = useState<{ message: string; stale: boolean } | null>(null);
  const stale = useStaleReload();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(projectInput),
    defaultValues: valuesOf(project),
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
      setFailure({
        message: formFailureMessage(error, CONNECTIVITY_MESSAGE),
        stale: hasErrorCode(error, 'stale_write'),
      });
      return;
    }
    notifySuccess('Project saved.');
    closeAllModals();
    await navigate(adminPath('projects', saved.key));
  });

  // After a stale update: the stored project, loaded again, replaces the edit.
  const reload = (id: string) =>
    stale.reload(reloadProjects, (projects) => {
      const fresh = projects.find((candidate) => candidate.id === id);
      if (!fresh) {
        setFailure({ message: PROJECT_GONE_MESSAGE, stale: false });
        return;
      }
      setFailure(null);
      reset(valuesOf(fresh));
    });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={project ? 'Update Project' : 'Create Project'}>
      <Stack gap="md">
        <FormFailure message={failure?.message ?? null}>
          {failure?.stale && project ? (
            <ReloadAction reloading={stale.reloading} onReload={() => void reload(project.id)} />
          ) : null}
        </FormFailure>
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
