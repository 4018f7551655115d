import { Group, Text, VisuallyHidden } from '@mantine/core';

type LogoProps = {
  /** Height of the mark in pixels; the wordmark scales with it. */
  size?: number;
  /** Shows only the mark (the name stays readable by assistive technology). */
  markOnly?: boolean;
};

/** The Vexil flag mark and wordmark. */
export function Logo({ size = 28, markOnly = false }: LogoProps) {
  return (
    <Group gap={Math.round(size / 3.5)} wrap="nowrap" component="span">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
        <path d="M9.5 6.5v19" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
        <path d="M10.8 7.6c4.2-2.2 7.4 2 12.4-.3v9.6c-5 2.3-8.2-1.9-12.4.3z" fill="#fff" />
      </svg>
      {markOnly ? (
        <VisuallyHidden>Vexil</VisuallyHidden>
      ) : (
        <Text component="span" fw={800} fz={size * 0.72} lh={1} style={{ letterSpacing: '-0.02em' }}>
          Vexil
        </Text>
      )}
    </Group>
  );
}
