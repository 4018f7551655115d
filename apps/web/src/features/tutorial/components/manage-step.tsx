import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAdjustments, IconBook, IconCircleCheck, IconToggleRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Feature, FeatureControl } from '@vexil/core';
import { formatDate } from '../../../lib/format';
import { HELP_PATH, featureDetailPath, featureListPath } from '../../../lib/paths';
import { TUTORIAL_USER_ATTRIBUTE, TUTORIAL_USER_ID } from '../snippets';

export type ManageStepProps = {
  project: { key: string; name: string };
  environment: { key: string; name: string; production: boolean };
  feature: Feature;
  control: FeatureControl | undefined;
};

/**
 * Step 3, "Manage it": the feature has been evaluated in this environment; how to switch it and whom
 * to give it to, with links to where that is done and to Help.
 */
export function ManageStep({ project, environment, feature, control }: ManageStepProps) {
  const lastImpression = control?.statistics.lastImpressionDate;
  const { name, value } = TUTORIAL_USER_ATTRIBUTE;
  return (
    <Stack gap="lg">
      <Alert
        color="teal"
        variant="light"
        icon={<IconCircleCheck size={18} aria-hidden="true" />}
        title={`${feature.name} has been evaluated in ${environment.name}`}
      >
        Vexil heard from your SDK{lastImpression ? ` (last evaluation ${formatDate(lastImpression)})` : ''}.
        It is <strong>{control?.enabled ? 'on' : 'off'}</strong> in {environment.name} now. Keep your program
        running: it picks up every change you make here when its SDK next asks Vexil for the rules (every 10
        seconds for Node, 30 for Go, 60 for Java).
      </Alert>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Card
          icon={<IconToggleRight size={20} aria-hidden="true" />}
          title="Turn it on or off"
          action={
            <Button
              variant="default"
              size="sm"
              component={Link}
              to={`${featureListPath(project.key, environment.key)}?q=${encodeURIComponent(feature.key)}`}
            >
              Open the feature list
            </Button>
          }
        >
          Switch <code>{feature.key}</code> on in the feature list of {environment.name} and your program
          prints &quot;{feature.key} is on&quot;.
          {environment.production ? ' In a production environment Vexil asks before the change.' : ''}
        </Card>
        <Card
          icon={<IconAdjustments size={20} aria-hidden="true" />}
          title="Target it"
          action={
            <Button
              variant="default"
              size="sm"
              component={Link}
              to={featureDetailPath(project.key, environment.key, feature.key, 'targeting')}
            >
              Open Targeting
            </Button>
          }
        >
          Give it to some users only: by attribute (<code>{`${name} equals ${value}`}</code> matches{' '}
          <code>{TUTORIAL_USER_ID}</code>) or by percentage, 10 % on and 90 % off for example. Targeting is
          saved for {environment.name} alone.
        </Card>
        <Card
          icon={<IconBook size={20} aria-hidden="true" />}
          title="Learn more"
          action={
            <Group gap="xs">
              <Button variant="default" size="sm" component={Link} to={`${HELP_PATH}#targeting`}>
                Targeting
              </Button>
              <Button variant="default" size="sm" component={Link} to={`${HELP_PATH}#splits`}>
                Splits
              </Button>
            </Group>
          }
        >
          Help explains rules, conditions and percentage splits, and how users keep their variant.
        </Card>
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Done with {project.name}? Go on with your own features from the{' '}
        <Anchor component={Link} to={featureListPath(project.key, environment.key)}>
          feature list
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

function Card({
  icon,
  title,
  action,
  children,
}: {
  icon: ReactNode;
  title: string;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap="xs">
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon variant="light" size="md" radius="md">
              {icon}
            </ThemeIcon>
            <Title order={3} size="h5">
              {title}
            </Title>
          </Group>
          <Text size="sm">{children}</Text>
        </Stack>
        <div>{action}</div>
      </Stack>
    </Paper>
  );
}
