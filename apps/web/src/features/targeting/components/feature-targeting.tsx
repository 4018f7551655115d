import { Stack, Text, Title } from '@mantine/core';
import { useSession } from '../../../lib/session';
import { denialOf, type Feature, type FeatureControl } from '@vexil/core';
import { SchedulesPanel } from './schedules-panel';
import { TargetingEditor } from './targeting-editor';
import { TargetingReadOnly } from './targeting-read-only';

export type FeatureTargetingProps = {
  feature: Feature;
  control: FeatureControl | undefined;
  environmentName: string;
};

/**
 * docs/product.md §2 Targeting tab, "Targeting for {environment}": the rules editor for users who may change this
 * environment's control, and the rules as text, with the reason (core's wording of the refusal), for
 * those who may not. Below them, the feature's schedules in this environment (schedules-panel.tsx),
 * which everyone sees and those who may change the control make and act on: below, so that the
 * list arriving never moves the editor under the user's pointer.
 */
export function FeatureTargeting({ feature, control, environmentName }: FeatureTargetingProps) {
  const { principalUser, projects } = useSession();
  const project = projects.find((candidate) => candidate.key === feature.projectKey);
  const environment = project?.environments.find((candidate) => candidate.key === control?.environmentKey);
  const constraint = {
    production: environment?.production ?? true,
    tags: environment?.tags ?? [],
    projectId: project?.id,
  };
  const denial = denialOf(principalUser, 'update', { type: 'featureControl', environment: constraint });

  return (
    <Stack gap="md">
      <div>
        <Title order={2} fz="xl">
          Targeting for {environmentName}
        </Title>
        <Text size="sm" c="dimmed">
          Choose which users get which variant of {feature.name} in {environmentName}.
        </Text>
      </div>
      {!control ? (
        <Text c="dimmed">This feature has no targeting in {environmentName}.</Text>
      ) : !denial && environment ? (
        <TargetingEditor key={control.id} feature={feature} control={control} environment={environment} />
      ) : (
        <TargetingReadOnly
          feature={feature}
          control={control}
          reason={`${denial?.message ?? ''} You can view this targeting.`.trim()}
        />
      )}
      {control && environment ? (
        <SchedulesPanel
          feature={feature}
          control={control}
          environment={environment}
          denial={denial?.message ?? null}
        />
      ) : null}
    </Stack>
  );
}
