import { Alert, Badge, Button, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { closeModal, showModal } from '../../../lib/modals';
import { useFeature } from '../../../entities/features/api/get-feature';
import { FeatureStatusIcons } from '../../../components/feature-status';

export type FeatureSummaryProps = {
  projectKey: string;
  environment: { key: string; name: string };
  featureKey: string;
  /** The feature's page in this environment. */
  featurePath: string;
};

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function CloseButton() {
  return (
    <Button variant="default" onClick={() => closeModal()}>
      Close
    </Button>
  );
}

/**
 * docs/product.md §2 "Feature list": the detail modal of `?key=`: the feature's name, key and description, its
 * state in this environment and what it serves, and a link to its page.
 */
export function FeatureSummary({ projectKey, environment, featureKey, featurePath }: FeatureSummaryProps) {
  const feature = useFeature(projectKey, featureKey);

  if (feature.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the feature">
        <Skeleton height={24} width="60%" />
        <Skeleton height={16} width="40%" />
        <Skeleton height={48} />
      </Stack>
    );
  }

  if (feature.isError) {
    const missing = isApiError(feature.error) && feature.error.status === 404;
    return (
      <Stack gap="md">
        <Alert
          color={missing ? 'yellow' : 'red'}
          variant="light"
          role="alert"
          icon={<IconAlertCircle size={18} aria-hidden="true" />}
        >
          {missing
            ? `There is no feature with the key “${featureKey}” in this project.`
            : 'We could not load this feature, please try again.'}
        </Alert>
        <Group justify="flex-end" gap="sm">
          {missing ? null : (
            <Button variant="default" onClick={() => void feature.refetch()}>
              Retry
            </Button>
          )}
          <CloseButton />
        </Group>
      </Stack>
    );
  }

  const { name, key, description, variants, controls } = feature.data;
  const control = controls[environment.key];

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={3}>{name}</Title>
        <Code fz="sm" w="fit-content">
          {key}
        </Code>
      </Stack>
      <Field label="Description">
        <Text size="sm" c={description ? undefined : 'dimmed'}>
          {description || 'No description'}
        </Text>
      </Field>
      <Field label={`In ${environment.name}`}>
        {control ? (
          <Stack gap="xs">
            <Group gap="sm">
              <Badge color={control.enabled ? 'teal' : 'gray'} variant="light">
                {control.enabled ? 'On' : 'Off'}
              </Badge>
              <FeatureStatusIcons control={control} variants={variants} />
            </Group>
            <Text size="sm" c="dimmed">
              {control.rulesDescription}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Not set up in this environment.
          </Text>
        )}
      </Field>
      <Group justify="flex-end" gap="sm" mt="xs">
        <CloseButton />
        <Button
          component={Link}
          to={featurePath}
          rightSection={<IconExternalLink size={16} aria-hidden="true" />}
        >
          Open feature
        </Button>
      </Group>
    </Stack>
  );
}

/** Opens the feature detail modal; `onClose` runs however it closes. */
export function openFeatureSummaryModal(props: FeatureSummaryProps & { onClose: () => void }): string {
  const { onClose, ...summary } = props;
  return showModal({
    title: 'Feature summary',
    size: 'lg',
    onClose,
    children: <FeatureSummary {...summary} />,
  });
}
