import type { ReactNode } from 'react';
import { Alert, Anchor, Button, Group, List, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isMaskedServerSdkKey } from '@vexil/core';
import { HIDDEN_SERVER_KEY_MESSAGE } from '../../../components/api-keys-modal';
import { CodeBlock } from '../../../components/code-block';
import { LoadError } from '../../../components/load-error';
import { environmentQueryOptions } from '../../../entities/environments/api/get-environment';
import { isApiError } from '../../../lib/api-client';
import { HELP_PATH } from '../../../lib/paths';
import {
  LANGUAGE_LABELS,
  SDK_PACKAGES,
  TUTORIAL_LANGUAGES,
  isTutorialLanguage,
  tutorialSnippet,
  type TutorialLanguage,
} from '../snippets';

/** docs/product.md §9: how often step 2 asks whether an SDK has evaluated the feature. */
export const TUTORIAL_POLL_MS = 3_000;

export type EvaluateStepProps = {
  project: { key: string; name: string };
  environment: { key: string; name: string };
  featureKey: string;
  language: TutorialLanguage;
  onLanguage: (language: TutorialLanguage) => void;
  /** The feature's poll failed: null while it answers. */
  watchError: unknown;
  retrying: boolean;
  onRetry: () => void;
  /** Back to step 1, to create or choose another feature. */
  onChooseAnother: () => void;
};

/**
 * Step 2, "Evaluate it": a program in the chosen SDK language, filled in with this Vexil's address, the
 * environment's server key and the feature's key, and what to do with it. The page moves on once the
 * environment sees the feature evaluated (the feature is polled every 3 s meanwhile).
 */
export function EvaluateStep(props: EvaluateStepProps) {
  const { project, environment, featureKey, language, onLanguage } = props;
  const keys = useQuery(environmentQueryOptions(project.key, environment.key));

  if (isApiError(props.watchError) && props.watchError.status === 404) {
    return (
      <Stack gap="sm" align="flex-start">
        <Alert color="orange" variant="light" title={`${featureKey} no longer exists`}>
          The feature was deleted from {project.name}, so no SDK can evaluate it. Create or choose another
          one.
        </Alert>
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
          onClick={props.onChooseAnother}
        >
          Choose another feature
        </Button>
      </Stack>
    );
  }

  let body: ReactNode;
  if (keys.isPending) {
    body = (
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Loading the server key of {environment.name}…
        </Text>
      </Group>
    );
  } else if (keys.isError) {
    body = (
      <LoadError
        title={`We could not load the server key of ${environment.name}.`}
        error={keys.error}
        retrying={keys.isFetching}
        onRetry={() => void keys.refetch()}
      />
    );
  } else {
    // The server masks the server key for those who may not change this environment's flags.
    const hidden = isMaskedServerSdkKey(keys.data.apiKey);
    const snippet = tutorialSnippet(language, {
      baseUrl: window.location.origin,
      serverKey: hidden ? null : keys.data.apiKey,
      featureKey,
    });
    body = (
      <Stack gap="md">
        {hidden ? (
          <Alert
            color="gray"
            variant="light"
            icon={<IconLock size={18} aria-hidden="true" />}
            title="Your server key is hidden"
          >
            {HIDDEN_SERVER_KEY_MESSAGE} The program shows where the key goes: ask someone who may change the
            flags of {environment.name} for it, or follow the tutorial in an environment you may change.
          </Alert>
        ) : null}
        <List
          type="ordered"
          spacing="md"
          styles={{ itemWrapper: { width: '100%', minWidth: 0 }, itemLabel: { width: '100%', minWidth: 0 } }}
        >
          <List.Item>
            <Stack gap="xs">
              <Text>{installIntro(language)}</Text>
              <CodeBlock
                title={snippet.install.title}
                code={snippet.install.code}
                label={`${LANGUAGE_LABELS[language]} install`}
              />
            </Stack>
          </List.Item>
          <List.Item>
            <Stack gap="xs">
              <Text>
                Save this program as <code>{snippet.program.fileName}</code>. It evaluates{' '}
                <code>{featureKey}</code> for a user every 5 seconds and prints what it gets.
              </Text>
              <CodeBlock
                title={snippet.program.fileName}
                code={snippet.program.code}
                label={`${LANGUAGE_LABELS[language]} program`}
              />
            </Stack>
          </List.Item>
          <List.Item>
            <Stack gap="xs">
              <Text>Run it, and leave it running for step 3:</Text>
              <CodeBlock
                title="Terminal"
                code={snippet.run}
                label={`${LANGUAGE_LABELS[language]} run command`}
              />
            </Stack>
          </List.Item>
        </List>
        <Waiting
          featureKey={featureKey}
          environment={environment.name}
          reportsWithin={snippet.reportsWithin}
          language={language}
          watchError={props.watchError}
          retrying={props.retrying}
          onRetry={props.onRetry}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Text>
        Your application evaluates a feature through an SDK, which downloads the rules of {environment.name}{' '}
        with the environment&apos;s server key and tells Vexil what it evaluated. Choose your language; the
        code is filled in with this Vexil&apos;s address and the keys of {environment.name}.
      </Text>
      <SegmentedControl
        aria-label="SDK language"
        data={TUTORIAL_LANGUAGES.map((value) => ({ value, label: LANGUAGE_LABELS[value] }))}
        value={language}
        onChange={(value) => isTutorialLanguage(value) && onLanguage(value)}
        style={{ alignSelf: 'flex-start' }}
      />
      {body}
      <Text size="sm" c="dimmed">
        In a web page, or through OpenFeature? See{' '}
        <Anchor component={Link} to={`${HELP_PATH}#connect-an-sdk`}>
          Connecting an SDK
        </Anchor>{' '}
        in Help.{' '}
        <Anchor component="button" type="button" inherit onClick={props.onChooseAnother}>
          Use another feature
        </Anchor>
      </Text>
    </Stack>
  );
}

function installIntro(language: TutorialLanguage): ReactNode {
  switch (language) {
    case 'nodejs':
      return 'In a new folder, install the Featureflow Node SDK:';
    case 'java': {
      const { groupId, artifactId, version } = SDK_PACKAGES.java;
      return (
        <>
          Add the Featureflow Java SDK to your Maven project&apos;s <code>pom.xml</code> (with Gradle:{' '}
          <code>{`implementation '${groupId}:${artifactId}:${version}'`}</code>):
        </>
      );
    }
    case 'go':
      return 'In a new folder, make a module and add the Featureflow Go SDK:';
  }
}

/** What the step is waiting for, while it waits; a failing poll says so and keeps trying. */
function Waiting({
  featureKey,
  environment,
  reportsWithin,
  language,
  watchError,
  retrying,
  onRetry,
}: Pick<EvaluateStepProps, 'featureKey' | 'language' | 'watchError' | 'retrying' | 'onRetry'> & {
  environment: string;
  reportsWithin: string;
}) {
  if (watchError) {
    return (
      <LoadError
        title={`We could not ask whether ${featureKey} has been evaluated.`}
        error={watchError}
        retrying={retrying}
        onRetry={onRetry}
      />
    );
  }
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<Loader size={18} />}
      role="status"
      title={`Waiting for ${featureKey} to be evaluated in ${environment}`}
    >
      This page moves on by itself as soon as Vexil hears of it. The {LANGUAGE_LABELS[language]} SDK reports
      its evaluations within {reportsWithin}.
    </Alert>
  );
}
