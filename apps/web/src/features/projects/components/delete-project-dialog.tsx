import { useState } from 'react';
import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { closeModal, showModal } from '../../../lib/modals';

type DeleteProjectFormProps = {
  name: string;
  projectKey: string;
  onAnswer: (confirmed: boolean) => void;
};

/** The label of the field where the key is typed. */
export function typeKeyLabel(projectKey: string): string {
  return `Type the project key ${projectKey} to confirm`;
}

function DeleteProjectForm({ name, projectKey, onAnswer }: DeleteProjectFormProps) {
  const [typed, setTyped] = useState('');
  // The key exactly as shown: deleting cannot be undone, so a near miss does not count.
  const matches = typed === projectKey;
  return (
    <form
      noValidate
      aria-label="Delete Project"
      onSubmit={(event) => {
        event.preventDefault();
        if (matches) onAnswer(true);
      }}
    >
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {`Delete the project "${name}"? This deletes its environments and features and cannot be undone.`}
        </Text>
        <TextInput
          label={
            <>
              Type the project key <Code>{projectKey}</Code> to confirm
            </>
          }
          aria-label={typeKeyLabel(projectKey)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => onAnswer(false)}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={!matches}>
            Delete Project
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * docs/product.md §2 "Project admin": the confirmation before deleting a project, which asks for the
 * project's key to be typed; Delete Project stays disabled until the text equals the key. Resolves
 * true when confirmed, false when cancelled or dismissed.
 */
export function confirmDeleteProject(project: { name: string; key: string }): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (confirmed: boolean) => {
      if (answered) return;
      answered = true;
      resolve(confirmed);
    };
    const id = showModal({
      title: 'Delete Project',
      onClose: () => answer(false),
      children: (
        <DeleteProjectForm
          name={project.name}
          projectKey={project.key}
          onAnswer={(confirmed) => {
            answer(confirmed);
            closeModal(id);
          }}
        />
      ),
    });
  });
}
