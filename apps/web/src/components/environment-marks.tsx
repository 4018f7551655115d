import { ColorSwatch } from '@mantine/core';
import { IconDeviceLaptop } from '@tabler/icons-react';

/** The environment's colour, as a small dot beside its name. Decorative: the name carries the meaning. */
export function EnvironmentSwatch({ color, size = 12 }: { color: string; size?: number }) {
  return (
    <ColorSwatch
      component="span"
      color={color}
      size={size}
      withShadow={false}
      aria-hidden="true"
      style={{ flexShrink: 0 }}
    />
  );
}

/** docs/product.md §2: a laptop icon marks a local environment. */
export function LocalEnvironmentIcon({ size = 16 }: { size?: number }) {
  return (
    <IconDeviceLaptop
      size={size}
      role="img"
      aria-label="Local environment"
      title="Local environment"
      style={{ flexShrink: 0, color: 'var(--mantine-color-dimmed)' }}
    />
  );
}
