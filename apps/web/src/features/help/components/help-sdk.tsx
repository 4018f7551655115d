import { useState, type ReactNode } from 'react';
import { Alert, Button, CopyButton, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { isMaskedServerSdkKey, type ProjectSummary } from '@vexil/core';
import { CopyKeyButton, HIDDEN_SERVER_KEY_MESSAGE } from '../../../components/api-keys-modal';
import { COPIED_MESSAGE } from '../../../components/copy-tooltip';
import { LoadError } from '../../../components/load-error';
import { environmentQueryOptions } from '../../../entities/environments/api/get-environment';
import type { EnvironmentChoice } from '../../../lib/current-environment';
import {
  EXAMPLE_FEATURE_KEY,
  browserSnippet,
  nodeSnippet,
  ofrepSnippet,
  type SnippetValues,
} from '../snippets';
import classes from './help-page.module.css';
import { Heading } from './help-heading';

/*
 * The Help page's "Connecting an SDK" section (help-page.tsx): the chosen environment's base URL and
 * keys, and the Node, browser and OFREP examples filled in with them.
 */

const choiceValue = (projectKey: string, environmentKey: string) => `${projectKey}/${environmentKey}`;

export function ConnectAnSdk({
  projects,
  current,
}: {
  projects: ProjectSummary[];
  current: EnvironmentChoice | null;
}) {
  const [choice, setChoice] = useState(
    current ? choiceValue(current.project.key, current.environment.key) : null,
  );
  const data = projects
    .filter((project) => project.environments.length > 0)
    .map((project) => ({
      group: project.name,
      items: project.environments.map((environment) => ({
        value: choiceValue(project.key, environment.key),
        label: `${environment.name} (${project.name})`,
      })),
    }));
  const chosen = projects
    .flatMap((project) => project.environments.map((environment) => ({ project, environment })))
    .find(({ project, environment }) => choiceValue(project.key, environment.key) === choice);

  return (
    <section aria-labelledby="connect-an-sdk">
      <Heading id="connect-an-sdk">Connecting an SDK</Heading>
      <Stack gap="md" mt="sm">
        <Text>
          Your application asks Vexil which variant of a feature a user gets through an SDK. Each environment
          has two keys: a <strong>server key</strong>, secret, for applications running on your servers, and a{' '}
          <strong>JS client key</strong>, public, for web pages and mobile apps. The key tells Vexil which
          environment&apos;s settings to use. The Featureflow SDKs (Node, browser, Java, Go, .NET, Python,
          Ruby, Android, React Native) and any OpenFeature SDK with an OFREP provider work once their base URL
          points here.
        </Text>
        {chosen ? (
          <>
            <Select
              label="Environment"
              description="The keys and examples below are for this environment."
              data={data}
              value={choice}
              onChange={(value) => value && setChoice(value)}
              allowDeselect={false}
              searchable
              maw={480}
              comboboxProps={{ withinPortal: true }}
            />
            <EnvironmentKeys key={choice} project={chosen.project} environment={chosen.environment} />
          </>
        ) : (
          <Alert variant="light" color="gray" title="No environment yet">
            Connecting an SDK needs an environment. An organisation admin creates projects and their
            environments in Admin.
          </Alert>
        )}
      </Stack>
    </section>
  );
}

/** The base URL and keys of one environment, and the snippets filled in with them. */
function EnvironmentKeys({ project, environment }: EnvironmentChoice) {
  const keys = useQuery(environmentQueryOptions(project.key, environment.key));
  const baseUrl = window.location.origin;

  let body: ReactNode;
  if (keys.isPending) {
    body = (
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Loading the keys of {environment.name}…
        </Text>
      </Group>
    );
  } else if (keys.isError) {
    body = (
      <LoadError
        title={`We could not load the keys of ${environment.name}.`}
        error={keys.error}
        retrying={keys.isFetching}
        onRetry={() => void keys.refetch()}
      />
    );
  } else {
    // The server masks the server key for those who may not change this environment's flags.
    const hidden = isMaskedServerSdkKey(keys.data.apiKey);
    const values: SnippetValues = {
      baseUrl,
      serverKey: hidden ? null : keys.data.apiKey,
      jsKey: keys.data.jsApiKey,
    };
    body = (
      <Stack gap="lg">
        <Stack gap="sm" maw={640}>
          <ValueField
            label="Base URL"
            description="This Vexil's address: the base URL and the events URL of every SDK."
            value={baseUrl}
          />
          <ValueField
            label="JS Client Key"
            description="Public: for web pages and mobile apps. It only evaluates flags for the user of the device."
            value={keys.data.jsApiKey}
          />
          <ValueField
            label="Server Key"
            description={
              hidden
                ? HIDDEN_SERVER_KEY_MESSAGE
                : 'Secret: for server SDKs and OFREP. Keep it on your servers, never in a browser or an app.'
            }
            value={keys.data.apiKey}
            hidden={hidden}
          />
        </Stack>
        <Stack gap="sm">
          <Heading id="node-sdk" order={3}>
            Node SDK
          </Heading>
          <Text size="sm">
            On a server, the Featureflow Node SDK downloads the environment&apos;s rules with the server key
            and evaluates every feature locally, so it keeps working if Vexil is briefly unreachable.
          </Text>
          {hidden ? (
            <Text size="sm" c="dimmed">
              Your server key is hidden, so the examples that need it show where it goes instead.
            </Text>
          ) : null}
          <Snippet title="Node SDK" code={nodeSnippet(values)} />
        </Stack>
        <Stack gap="sm">
          <Heading id="browser-client" order={3}>
            Browser client
          </Heading>
          <Text size="sm">
            In a web page, the Featureflow browser client asks Vexil for the variants of one user with the
            public JS client key.
          </Text>
          <Snippet title="Browser client" code={browserSnippet(values)} />
        </Stack>
        <Stack gap="sm">
          <Heading id="ofrep" order={3}>
            OpenFeature (OFREP)
          </Heading>
          <Text size="sm">
            Any OpenFeature SDK with an OFREP provider evaluates flags remotely with the server key; the{' '}
            <code>targetingKey</code> of the context is the user&apos;s id. The same call from a terminal:
          </Text>
          <Snippet title="OFREP request" code={ofrepSnippet(values)} />
        </Stack>
        <Text size="sm" c="dimmed">
          Replace <code>{EXAMPLE_FEATURE_KEY}</code> with the key of one of your features and{' '}
          <code>user-1</code> with your user&apos;s id.
        </Text>
      </Stack>
    );
  }
  return body;
}

function ValueField({
  label,
  description,
  value,
  hidden = false,
}: {
  label: string;
  description: string;
  value: string;
  hidden?: boolean;
}) {
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      disabled={hidden}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      rightSection={<CopyKeyButton value={value} label={label} hidden={hidden} />}
    />
  );
}

/** A code example: scrolls sideways inside itself (focusable, so the keyboard can too) and copies whole. */
function Snippet({ title, code }: { title: string; code: string }) {
  return (
    <div className={classes.snippet}>
      <Group justify="space-between" gap="xs" className={classes.snippetBar} wrap="nowrap">
        <Text size="xs" fw={600} c="dimmed">
          {title}
        </Text>
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="compact-xs"
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              leftSection={
                copied ? (
                  <IconCheck size={14} aria-hidden="true" />
                ) : (
                  <IconCopy size={14} aria-hidden="true" />
                )
              }
              aria-label={copied ? COPIED_MESSAGE : `Copy the ${title} example`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <pre className={classes.code} tabIndex={0} role="region" aria-label={`${title} example`}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
