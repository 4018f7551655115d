import { useEffect } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconApi, IconExternalLink } from '@tabler/icons-react';
import type { ProjectSummary } from '@vexil/core';
import type { EnvironmentChoice } from '../../../lib/current-environment';
import { API_REFERENCE_PATH } from '../../../lib/paths';
import { ConnectAnSdk } from './help-sdk';
import { GettingStarted, Segments, Splits, Targeting } from './help-guide';
import { SECTIONS } from './help-heading';
import classes from './help-page.module.css';

export type HelpPageProps = {
  /** The session's projects, whose environments the SDK section can show. */
  projects: ProjectSummary[];
  /** The environment the user works in, shown first; null when the organisation has none. */
  current: EnvironmentChoice | null;
};

/**
 * /help (docs/product.md §2 "Help page"): how Vexil works, in product words, and how to connect an SDK
 * to an environment, with this Vexil's address and the environment's keys filled into the snippets.
 * The server masks a server key the user may not see, and the page then shows it hidden and keeps
 * it out of the snippets, exactly as the Api keys modal does.
 */
export function HelpPage({ projects, current }: HelpPageProps) {
  // The page opens on a section named in the address once its lazily loaded content is there.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1}>Help</Title>
        <ApiReferenceButton />
      </Group>
      <Text c="dimmed" maw={820}>
        How to create features, connect your applications to Vexil and decide who gets what. For every call
        the dashboard and the SDKs make, see the API reference.
      </Text>
      <div className={classes.layout}>
        <nav aria-label="On this page" className={classes.toc}>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb="xs">
            On this page
          </Text>
          <ul className={classes.tocList}>
            {/* The SDK examples, and so their headings, need an environment. */}
            {SECTIONS.filter((section) => current || !('sub' in section)).map((section) => (
              <li key={section.id} className={'sub' in section ? classes.tocSub : undefined}>
                <a href={`#${section.id}`} className={classes.tocLink}>
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className={classes.content}>
          <Stack gap="xl">
            <GettingStarted current={current} />
            <ConnectAnSdk projects={projects} current={current} />
            <Targeting />
            <Splits />
            <Segments />
          </Stack>
        </div>
      </div>
    </Stack>
  );
}

function ApiReferenceButton() {
  return (
    <Button
      component="a"
      href={API_REFERENCE_PATH}
      target="_blank"
      rel="noopener"
      variant="default"
      leftSection={<IconApi size={16} aria-hidden="true" />}
      rightSection={<IconExternalLink size={14} aria-hidden="true" />}
    >
      API reference
    </Button>
  );
}
