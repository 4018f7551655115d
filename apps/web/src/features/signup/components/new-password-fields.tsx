import type { ChangeEvent, Ref } from 'react';
import { PasswordInput, Stack } from '@mantine/core';
import { PASSWORDS_DIFFER_MESSAGE } from '@vexil/core';
import { PasswordStrength } from './password-strength';

type Binding = {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  ref: Ref<HTMLInputElement>;
};

/** New password and its confirmation, with the strength meter under the first (docs/product.md §5 "Passwords"). */
export function NewPasswordFields(props: {
  password: Binding;
  confirmPassword: Binding;
  errors: { password?: string | undefined; confirmPassword?: string | undefined };
  autoFocus?: boolean;
  /** "New password" when one is replaced, "Password" when it is the first. */
  label?: string;
}) {
  const { password, confirmPassword, errors } = props;
  // The mismatch shows as soon as the confirmation has been typed, not only after a submit.
  const mismatch =
    confirmPassword.value && confirmPassword.value !== password.value ? PASSWORDS_DIFFER_MESSAGE : undefined;
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <PasswordInput
          label={props.label ?? 'New password'}
          autoComplete="new-password"
          autoFocus={props.autoFocus}
          error={errors.password}
          {...password}
        />
        <PasswordStrength password={password.value} />
      </Stack>
      <PasswordInput
        label="Confirm password"
        autoComplete="new-password"
        error={errors.confirmPassword ?? mismatch}
        {...confirmPassword}
      />
    </Stack>
  );
}

/** Submitting stays disabled until both are filled in and equal (docs/product.md §5). */
export function passwordsReady(values: { password: string; confirmPassword: string }): boolean {
  return values.password.length > 0 && values.password === values.confirmPassword;
}
