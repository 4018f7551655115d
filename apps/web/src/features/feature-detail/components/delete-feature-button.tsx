import { Button, Card, Code, Group, Text, Title, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { confirm } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { denialOf, type Feature } from '@vexil/core';
import { useDeleteFeature } from '../../../entities/features/api/delete-feature';
import { featureListPath } from '../../../lib/paths';
import { LEAVE_WITHOUT_ASKING } from './unsaved-edits';

/**
 * docs/product.md §6: deleting a feature needs a production editor. Others see the button disabled with the reason;
 * the rest confirm (the dialog names the feature and its key), and land on the environment's feature list
 * with "{name} has been deleted".
 */
export function DeleteFeatureButton({
  feature,
  environmentKey,
}: {
  feature: Feature;
  environmentKey: string;
}) {
  const { principalUser, projects } = useSession();
  const navigate = useNavigate();
  const deletion = useDeleteFeature();
  const projectId = projects.find((project) => project.key === feature.projectKey)?.id;
  const denial = denialOf(principalUser, 'delete', { type: 'feature', projectId })?.message ?? null;

  async function remove() {
    const confirmed = await confirm({
      title: 'Delete feature',
      // Two features may share a name; the key tells them apart.
      message: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Are you sure you wish to delete {feature.name} (<Code>{feature.key}</Code>)? It is removed from
          every environment and SDKs stop receiving it.
        </Text>
      ),
      confirmLabel: 'Delete feature',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deletion.mutateAsync({ projectKey: feature.projectKey, featureId: feature.id });
    } catch {
      return; // The generic error toast has said why (docs/product.md §8).
    }
    notifySuccess(`${feature.name} has been deleted`);
    // Edits of a deleted feature can no longer be saved: the page is left without asking about them.
    await navigate(featureListPath(feature.projectKey, environmentKey), { state: LEAVE_WITHOUT_ASKING });
  }

  const button = (
    <Button
      color="red"
      variant={denial ? 'light' : 'filled'}
      leftSection={<IconTrash size={16} aria-hidden="true" />}
      disabled={denial !== null}
      loading={deletion.isPending}
      onClick={() => void remove()}
    >
      Delete feature
    </Button>
  );
  if (!denial) return button;
  // A disabled button gets no pointer events: the wrapper carries the tooltip.
  return (
    <Tooltip label={denial} withArrow multiline maw={280}>
      <span style={{ display: 'inline-block', cursor: 'not-allowed' }}>{button}</span>
    </Tooltip>
  );
}

/** The Settings tab's last card: what deleting the feature does, and the button. */
export function DeleteFeatureCard({ feature, environmentKey }: { feature: Feature; environmentKey: string }) {
  return (
    <Card withBorder radius="md" padding="lg" style={{ borderColor: 'var(--mantine-color-red-3)' }}>
      <Group justify="space-between" align="center" gap="md">
        <div>
          <Title order={3} fz="lg">
            Delete this feature
          </Title>
          <Text size="sm" c="dimmed">
            It is removed from every environment of {feature.project.name}, and SDKs stop receiving it.
          </Text>
        </div>
        <DeleteFeatureButton feature={feature} environmentKey={environmentKey} />
      </Group>
    </Card>
  );
}
