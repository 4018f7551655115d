import { Stack, Title } from '@mantine/core';
import { useFlag } from '../../lib/flags';
import { ProjectCards } from '../home/project-cards';

/** / and /home (spec §2 "Home page"). The Features section (recent, bookmarked, maintaining) follows. */
export function HomePage() {
  const projects = useFlag('home-projects');
  return (
    <Stack gap="xl">
      <Title order={1}>Home</Title>
      {projects ? <ProjectCards /> : null}
    </Stack>
  );
}
