import { useId } from 'react';
import { Anchor, Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFolders, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOrganisationAdmin, type ProjectSummary } from '@vexil/core';
import { useSession } from '../../../lib/session';
import { EnvironmentSwatch, LocalEnvironmentIcon } from '../../../components/environment-marks';
import { adminPath, featureListPath } from '../../../lib/paths';
import classes from './project-cards.module.css';

/** docs/product.md §9: a home project card lists at most this many environments. */
export const HOME_CARD_ENVIRONMENTS = 4;

function ProjectCard({ project, admin }: { project: ProjectSummary; admin: boolean }) {
  const titleId = useId();
  const shown = project.environments.slice(0, HOME_CARD_ENVIRONMENTS);
  const more = project.environments.length - shown.length;

  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      className={classes.card}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Title order={3} size="h5" id={titleId} lineClamp={1}>
          {project.name}
        </Title>
        <Badge variant="light" color="gray" radius="sm" tt="none" ff="monospace" style={{ flexShrink: 0 }}>
          {project.key}
        </Badge>
      </Group>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          No environments yet.
        </Text>
      ) : (
        <ul className={classes.environments}>
          {shown.map((environment) => (
            <li key={environment.id}>
              <Link to={featureListPath(project.key, environment.key)} className={classes.environment}>
                <EnvironmentSwatch color={environment.color} />
                <span className={classes.environmentName}>{environment.name}</span>
                {environment.local ? <LocalEnvironmentIcon /> : null}
                {environment.production || environment.isProduction ? (
                  <Badge size="xs" color="red" variant="light">
                    Production
                  </Badge>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {more > 0 ? (
        admin ? (
          <Anchor component={Link} to={adminPath('projects', project.key)} size="sm" fw={500}>
            +{more} more
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            +{more} more
          </Text>
        )
      ) : null}
    </Card>
  );
}

function NoProjects({ admin }: { admin: boolean }) {
  return (
    <Card withBorder radius="md" padding="xl">
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={44} radius="xl" variant="light" aria-hidden="true">
          <IconFolders size={24} />
        </ThemeIcon>
        <Text fw={600}>You have no projects yet.</Text>
        <Text size="sm" c="dimmed" maw={420}>
          {admin
            ? 'Projects hold your environments and feature flags. Set one up to get started.'
            : 'Projects hold your environments and feature flags. An organisation admin can set one up.'}
        </Text>
        {admin ? (
          <Button
            component={Link}
            to={adminPath('projects')}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            mt="xs"
          >
            Set up a project
          </Button>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * docs/product.md §2 "Home page" (flag home-projects): a card per project with up to four of its environments, each
 * opening that environment's feature list.
 */
export function ProjectCards() {
  const { projects, principalUser } = useSession();
  const admin = isOrganisationAdmin(principalUser);
  const headingId = useId();

  return (
    <section aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId} mb="md">
        Projects
      </Title>
      {projects.length === 0 ? (
        <NoProjects admin={admin} />
      ) : (
        <div className={classes.grid}>
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} admin={admin} />
          ))}
        </div>
      )}
    </section>
  );
}
