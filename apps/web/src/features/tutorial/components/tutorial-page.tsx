import { useEffect } from 'react';
import { Button, Group, Loader, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconRotate } from '@tabler/icons-react';
import type { Principal } from '@vexil/core';
import { LoadError } from '../../../components/load-error';
import { seenBySdk, useWatchedFeature } from '../../../entities/features/api/watch-feature';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { TUTORIAL_STEPS, useTutorialProgress, type TutorialStep } from '../progress';
import { CreateStep } from './create-step';
import { EvaluateStep, TUTORIAL_POLL_MS } from './evaluate-step';
import { ManageStep } from './manage-step';

export type TutorialPageProps = {
  project: { id: string; key: string; name: string };
  environment: { id: string; key: string; name: string; production: boolean };
  /** The signed-in user: whose progress it is, and whether they may create features. */
  user: Principal & { id: string };
};

/**
 * /projects/{p}/environments/{e}/tutorial (docs/product.md §2 "Tutorial", §4): three steps, create a
 * feature, evaluate it with an SDK, manage it. Step 1 moves to 2 once the feature is created or chosen,
 * and 2 to 3 once this environment has seen the feature evaluated by an SDK, which the page asks the
 * server every 3 s (docs/product.md §9). Progress is kept in this browser per project and environment;
 * Reset goes back to step 1 with Java.
 */
export function TutorialPage({ project, environment, user }: TutorialPageProps) {
  const { progress, update, reset } = useTutorialProgress({
    userId: user.id,
    projectId: project.id,
    environmentId: environment.id,
  });
  const { step, language, featureKey } = progress;
  const narrow = useNarrowScreen();
  const watched = useWatchedFeature(
    project.key,
    step === 1 ? null : featureKey,
    step === 2 ? TUTORIAL_POLL_MS : false,
  );
  const control = watched.data?.controls[environment.key];
  const seen = seenBySdk(control);

  useEffect(() => {
    if (step === 2 && seen) update({ step: 3 });
  }, [step, seen, update]);

  const goTo = (index: number) => {
    const next = (index + 1) as TutorialStep;
    // A step is reached only once the ones before it are done; going back is always allowed.
    if (next < step) update({ step: next });
  };

  return (
    <Stack gap="lg" maw={1000}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={1}>Tutorial</Title>
          <Text c="dimmed" mt={4}>
            Connect your application to {environment.name} of {project.name} in three steps.
          </Text>
        </div>
        <Button variant="default" leftSection={<IconRotate size={16} aria-hidden="true" />} onClick={reset}>
          Reset
        </Button>
      </Group>
      {/* On a phone the steps are numbers alone: the step's heading names it. */}
      <Stepper active={step - 1} onStepClick={goTo} allowNextStepsSelect={false} size="sm">
        {TUTORIAL_STEPS.map((number) => (
          <Stepper.Step
            key={number}
            label={narrow ? undefined : STEP_TITLES[number]}
            aria-label={`Step ${number}: ${STEP_TITLES[number]}`}
          />
        ))}
      </Stepper>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <section aria-label={STEP_TITLES[step]}>
          <Title order={2} size="h3" mb="md">
            {`Step ${step}: ${STEP_TITLES[step]}`}
          </Title>
          {step === 1 || !featureKey ? (
            <CreateStep
              project={project}
              user={user}
              onFeature={(chosen) => update({ featureKey: chosen, step: 2 })}
            />
          ) : step === 2 ? (
            <EvaluateStep
              project={project}
              environment={environment}
              featureKey={featureKey}
              language={language}
              onLanguage={(next) => update({ language: next })}
              watchError={watched.isError ? watched.error : null}
              retrying={watched.isFetching}
              onRetry={() => void watched.refetch()}
              onChooseAnother={() => update({ step: 1 })}
            />
          ) : watched.data ? (
            <ManageStep
              project={project}
              environment={environment}
              feature={watched.data}
              control={control}
            />
          ) : watched.isError ? (
            <LoadError
              title={`We could not load ${featureKey}.`}
              error={watched.error}
              retrying={watched.isFetching}
              onRetry={() => void watched.refetch()}
            />
          ) : (
            <Group gap="sm">
              <Loader size="sm" />
              <Text size="sm" c="dimmed">
                Loading {featureKey}…
              </Text>
            </Group>
          )}
        </section>
      </Paper>
    </Stack>
  );
}

const STEP_TITLES: Record<TutorialStep, string> = {
  1: 'Create a feature',
  2: 'Evaluate it',
  3: 'Manage it',
};
