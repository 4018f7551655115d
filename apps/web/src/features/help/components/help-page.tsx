import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  List,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconApi, IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isMaskedServerSdkKey, type ProjectSummary } from '@vexil/core';
import { CopyKeyButton, HIDDEN_SERVER_KEY_MESSAGE } from '../../../components/api-keys-modal';
import { COPIED_MESSAGE } from '../../../components/copy-tooltip';
import { LoadError } from '../../../components/load-error';
import { environmentQueryOptions } from '../../../entities/environments/api/get-environment';
import type { EnvironmentChoice } from '../../../lib/current-environment';
import { API_REFERENCE_PATH, featureListPath } from '../../../lib/paths';
import {
  EXAMPLE_FEATURE_KEY,
  browserSnippet,
  nodeSnippet,
  ofrepSnippet,
  type SnippetValues,
} from '../snippets';
import classes from './help-page.module.css';

export type HelpPageProps = {
  /** The session's projects, whose environments the SDK section can show. */
  projects: ProjectSummary[];
  /** The environment the user works in, shown first; null when the organisation has none. */
  current: EnvironmentChoice | null;
};

/** The sections, in page order, for the table of contents; `sub` ones are indented under the one before. */
const SECTIONS = [
  { id: 'getting-started', title: 'Getting started' },
  { id: 'connect-an-sdk', title: 'Connecting an SDK' },
  { id: 'node-sdk', title: 'Node SDK', sub: true },
  { id: 'browser-client', title: 'Browser client', sub: true },
  { id: 'ofrep', title: 'OpenFeature (OFREP)', sub: true },
  { id: 'targeting', title: 'Targeting' },
  { id: 'splits', title: 'Splits' },
  { id: 'segments', title: 'Segments' },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

const choiceValue = (projectKey: string, environmentKey: string) => `${projectKey}/${environmentKey}`;

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

/** A section's heading, which links to itself so its address can be copied or shared. */
function Heading({ id, order = 2, children }: { id: SectionId; order?: 2 | 3; children: ReactNode }) {
  return (
    <Title order={order} id={id} className={classes.heading}>
      <a href={`#${id}`} className={classes.headingLink}>
        {children}
      </a>
    </Title>
  );
}

function GettingStarted({ current }: { current: EnvironmentChoice | null }) {
  return (
    <section aria-labelledby="getting-started">
      <Heading id="getting-started">Getting started</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          Your organisation&apos;s work is organised in <strong>projects</strong>. Each project has{' '}
          <strong>environments</strong>, such as Development and Production, one for each place your
          application runs. A feature belongs to a project and exists in every one of its environments, where
          it is on or off, and targeted, separately: turning it on in Development changes nothing in
          Production.
        </Text>
        <List type="ordered" spacing="xs">
          <List.Item>
            <strong>Create a feature.</strong> Choose New Feature in an environment&apos;s feature list, or
            open the{' '}
            <Anchor component={Link} to="/features/create">
              Create feature page
            </Anchor>
            . Give it a name; its key (for example <code>{EXAMPLE_FEATURE_KEY}</code>) is what your code asks
            for.
          </List.Item>
          <List.Item>
            <strong>Turn it on in an environment.</strong> Use the feature&apos;s switch in that
            environment&apos;s feature list
            {current ? (
              <>
                {' '}
                (for example in{' '}
                <Anchor component={Link} to={featureListPath(current.project.key, current.environment.key)}>
                  {current.environment.name}
                </Anchor>
                )
              </>
            ) : null}
            . A production environment asks before the change; elsewhere it applies at once.
          </List.Item>
          <List.Item>
            <strong>Evaluate it in your application</strong> with an SDK connected to that environment (see{' '}
            <Anchor href="#connect-an-sdk">Connecting an SDK</Anchor>), and decide who gets it with{' '}
            <Anchor href="#targeting">targeting</Anchor>.
          </List.Item>
        </List>
        <Text>
          The environment you work in is chosen in the top navigation. A banner marks a production environment
          (changes there reach live users straight away) and a local one (used on a developer&apos;s machine).
        </Text>
      </Stack>
    </section>
  );
}

function ConnectAnSdk({ projects, current }: HelpPageProps) {
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

function Targeting() {
  return (
    <section aria-labelledby="targeting">
      <Heading id="targeting">Targeting</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          A feature&apos;s Targeting tab decides, in one environment, which variant each user gets. When the
          feature is off, everyone gets its <strong>off variant</strong>. When it is on, its rules apply:
        </Text>
        <List spacing="xs">
          <List.Item>
            A <strong>rule</strong> has one or more <strong>conditions</strong> and a variant (or a split
            between variants). A condition compares one attribute of the user, such as <code>tier</code> or{' '}
            <code>email</code>, with values: equals, contains, starts with, greater than, before a date, in a
            list and so on. A rule matches when <em>all</em> its conditions hold; a user without the attribute
            does not match it.
          </List.Item>
          <List.Item>
            Rules are tried <strong>in order</strong>, from the top: the first rule that matches decides, and
            the ones below it are not looked at. Move the most specific rules up with the arrows beside each
            rule.
          </List.Item>
          <List.Item>
            The last rule, <strong>Everyone else</strong> (the default rule), has no conditions and serves
            every user no other rule matched. It is always there and always last.
          </List.Item>
        </List>
        <Text>
          Your application sends the attributes with each user (<code>withAttribute</code> in the Node SDK,{' '}
          <code>attributes</code> in the browser client, the context in OFREP). Vexil also knows{' '}
          <code>featureflow.user.id</code>, <code>featureflow.date</code> and{' '}
          <code>featureflow.hourofday</code> for every user. Before saving, &quot;Try a user&quot; on the
          Targeting tab shows which variant a user would get from the rules on screen. Saving in a production
          environment asks first.
        </Text>
      </Stack>
    </section>
  );
}

function Splits() {
  return (
    <section aria-labelledby="splits">
      <Heading id="splits">Splits</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          Instead of one variant, a rule can <strong>split</strong> its users between variants by percentage,
          for example 10 % on and 90 % off to try a change on a few users first. The percentages are whole
          numbers that add up to 100; when you change one, the others adjust.
        </Text>
        <Text>
          Splits are <strong>sticky</strong>: the variant depends only on the feature&apos;s key and the
          user&apos;s id (the user key), never on chance, so the same user gets the same variant on every
          call, on every server, in the browser and in every SDK, for as long as the percentages stay the
          same. Give every user a stable id: users without one all count as the same &quot;anonymous&quot;
          user, and OFREP refuses to split without a <code>targetingKey</code>.
        </Text>
      </Stack>
    </section>
  );
}

function Segments() {
  return (
    <section aria-labelledby="segments">
      <Heading id="segments">Segments</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          A <strong>segment</strong> is a named group of users, such as beta testers or internal staff, listed
          on an environment&apos;s Segments page with a key, a name and a description. Rules target a segment
          instead of repeating the same conditions in every feature.
        </Text>
        <Text>
          Your application tells Vexil which segments a user belongs to: it sends their segment keys in a user
          attribute, and a target of type segment names that attribute. A condition on it is &quot;in&quot; or
          &quot;not in&quot; the segments you choose. A segment that a rule uses cannot be deleted.
        </Text>
      </Stack>
    </section>
  );
}
