import { ThemeIcon } from '@mantine/core';
import { IconBrandJira, IconBrandSlack } from '@tabler/icons-react';

/* The kinds of integration Admin › Integrations lists (integrations-admin.tsx): name, icon and colour. */

export const KINDS = {
  slack: { name: 'Slack', icon: IconBrandSlack, color: 'grape' },
  jira: { name: 'Jira', icon: IconBrandJira, color: 'blue' },
} as const;

export function KindIcon({ type }: { type: keyof typeof KINDS }) {
  const { icon: Icon, color } = KINDS[type];
  return (
    <ThemeIcon variant="light" color={color} size={40} radius="md" aria-hidden="true">
      <Icon size={24} />
    </ThemeIcon>
  );
}
