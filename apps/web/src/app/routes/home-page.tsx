import { Title } from '@mantine/core';

/** / and /home. The page body (projects, features table) belongs to the Home issue. */
export function HomePage() {
  return <Title order={1}>Home</Title>;
}
