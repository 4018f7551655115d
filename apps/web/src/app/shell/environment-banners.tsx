import { useId } from 'react';
import { Anchor, Button, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDeviceLaptop, IconGitPullRequest } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { EnvironmentSummary } from '../environment-scope';
import { showInfo } from '../../lib/modals';
import { changeRequestsPath } from '../../lib/paths';
import { useSession } from '../../lib/session';
import {
  protectedEnvironmentMessage,
  useEnvironmentProtection,
} from '../../entities/change-requests/hooks/use-environment-protection';
import classes from './environment-banners.module.css';

function showLocalEnvironmentInfo() {
  showInfo({
    title: 'Local environments',
    closeLabel: 'Got it',
    message: (
      <Stack gap="sm">
        <Text size="sm">
          A local environment is one that runs on a developer&apos;s own machine. Changes here affect only the
          applications configured with this environment&apos;s SDK keys, so it is a safe place to try features
          out.
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>Switch features on and off without touching shared or production traffic.</List.Item>
          <List.Item>Try targeting rules before copying them to a shared environment.</List.Item>
        </List>
      </Stack>
    ),
  });
}

function LocalBanner() {
  const titleId = useId();
  const textId = useId();
  return (
    <div
      role="status"
      aria-labelledby={titleId}
      aria-describedby={textId}
      className={`${classes.banner} ${classes.local}`}
    >
      <IconDeviceLaptop size={20} className={classes.icon} aria-hidden="true" />
      <span id={titleId} className={classes.title}>
        LOCAL ENVIRONMENT
      </span>
      <span id={textId} className={classes.text}>
        Changes here affect only applications on a developer&apos;s machine.
      </span>
      <Button size="compact-sm" variant="default" onClick={showLocalEnvironmentInfo}>
        Learn more
      </Button>
    </div>
  );
}

function ProductionBanner() {
  const titleId = useId();
  const textId = useId();
  return (
    <div
      role="status"
      aria-labelledby={titleId}
      aria-describedby={textId}
      className={`${classes.banner} ${classes.production}`}
    >
      <IconAlertTriangle size={20} className={classes.icon} aria-hidden="true" />
      <span id={titleId} className={classes.title}>
        PRODUCTION ENVIRONMENT
      </span>
      <span id={textId} className={classes.text}>
        Changes here affect live users straight away.
      </span>
    </div>
  );
}

/**
 * An environment whose approval settings ask for change requests (docs/adr/0024-change-requests.md),
 * as far as the user may read them (organisation admins and production editors; others learn it from
 * the refusal of their first direct write).
 */
function ProtectedBanner({ environment }: { environment: EnvironmentSummary }) {
  const { principalUser, projects } = useSession();
  const projectId = projects.find((project) => project.key === environment.projectKey)?.id;
  const protection = useEnvironmentProtection(principalUser, environment.projectKey, {
    ...environment,
    projectId,
  });
  const textId = useId();
  if (!protection.required) return null;
  return (
    <div role="status" aria-labelledby={textId} className={`${classes.banner} ${classes.protected}`}>
      <IconGitPullRequest size={20} className={classes.icon} aria-hidden="true" />
      <span id={textId} className={classes.text}>
        {protectedEnvironmentMessage(environment.name)}
      </span>
      <Anchor component={Link} to={changeRequestsPath(environment.projectKey, environment.key)} size="sm">
        Change requests
      </Anchor>
    </div>
  );
}

/**
 * docs/product.md §2 "Banners": above every environment page, for local and for production environments,
 * and for an environment whose changes go through change requests.
 */
export function EnvironmentBanners({ environment }: { environment: EnvironmentSummary }) {
  const production = environment.production || environment.isProduction;
  return (
    <Stack gap="xs" mb="lg" className={classes.banners}>
      {production ? <ProductionBanner /> : null}
      {environment.local ? <LocalBanner /> : null}
      <ProtectedBanner environment={environment} />
    </Stack>
  );
}
