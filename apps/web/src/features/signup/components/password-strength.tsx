import { Box, Group, Text } from '@mantine/core';
import { PASSWORD_STRENGTH_LABELS, passwordStrength } from '@vexil/core';

const COLORS = ['red', 'orange', 'yellow', 'teal', 'green'] as const;

/**
 * The strength meter of docs/product.md §5: five levels by length band and character classes
 * (core's `passwordStrength`), drawn as five bars of which the first level+1 are lit.
 */
export function PasswordStrength({ password }: { password: string }) {
  const level = passwordStrength(password);
  const label = PASSWORD_STRENGTH_LABELS[level];
  const color = COLORS[level];
  return (
    <Box>
      <Group
        gap={4}
        grow
        role="meter"
        aria-label="Password strength"
        aria-valuemin={1}
        aria-valuemax={5}
        aria-valuenow={password ? level + 1 : 0}
        aria-valuetext={password ? label : 'No password yet'}
      >
        {COLORS.map((_, index) => (
          <Box
            key={index}
            h={6}
            style={{ borderRadius: 3 }}
            bg={
              password && index <= level
                ? `var(--mantine-color-${color}-6)`
                : 'var(--mantine-color-default-border)'
            }
          />
        ))}
      </Group>
      <Text size="xs" c="dimmed" mt={4} aria-hidden="true">
        {password
          ? `Strength: ${label}`
          : 'Longer passwords that mix cases, digits and symbols are stronger.'}
      </Text>
    </Box>
  );
}
