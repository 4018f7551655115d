import { Stack, Title } from '@mantine/core';
import { HomeFeatures } from '../../features/features/components/home-features';
import { useFlag } from '../../lib/flags';
import { ProjectCards } from '../home/project-cards';

/** / and /home (spec §2 "Home page"): project cards (flag home-projects), then the Features section. */
export function HomePage() {
  const projects = useFlag('home-projects');
  return (
    <Stack gap="xl">
      <Title order={1}>Home</Title>
      {projects ? <ProjectCards /> : null}
      <HomeFeatures />
    </Stack>
  );
}
