import { Stack, Title } from '@mantine/core';
import { useFlag } from '../../../lib/flags';
import { HomeFeatures } from './home-features';
import { ProjectCards } from './project-cards';

/** docs/product.md §2 "Home page": project cards (flag home-projects), then the Features section. */
export function Home() {
  const projects = useFlag('home-projects');
  return (
    <Stack gap="xl">
      <Title order={1}>Home</Title>
      {projects ? <ProjectCards /> : null}
      <HomeFeatures />
    </Stack>
  );
}
