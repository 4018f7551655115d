import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import {
  PIN_MESSAGE,
  SIGNUP_PIN_LENGTH,
  SIGNUP_PIN_LIFETIME_MINUTES,
  passwordForm,
  signupEmailForm,
  signupNameForm,
} from '@vexil/core';
import { isApiError } from '../../../lib/api-client';
import { useRegisterEmail, useValidatePin } from '../api/signup-wizard';
import { NewPasswordFields, passwordsReady } from './new-password-fields';
import type { SignupValues } from './signup-state';

/** What every step gets: the wizard's values, a way to change them, and where to go next or back. */
export type StepProps = {
  values: SignupValues;
  update: (changes: Partial<SignupValues>) => void;
  onNext: () => void;
  onBack?: () => void;
};

type Issue = { readonly path: readonly PropertyKey[]; readonly message: string };
type Parsed<Out> =
  { success: true; data: Out } | { success: false; error: { readonly issues: readonly Issue[] } };

function firstErrors(issues: readonly Issue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0] ?? '')] ??= issue.message;
  return errors;
}

/**
 * A step's fields checked against its schema: nothing shows until the first Next, then the messages
 * follow the values as they change (as the sign-in forms do).
 */
export function useStepCheck<In, Out>(schema: { safeParse(values: In): Parsed<Out> }, values: In) {
  const [submitted, setSubmitted] = useState(false);
  const result = schema.safeParse(values);
  const errors: Record<string, string | undefined> =
    submitted && !result.success ? firstErrors(result.error.issues) : {};
  return {
    errors,
    /** The parsed values, or null after showing what is wrong. */
    submit(): Out | null {
      setSubmitted(true);
      return result.success ? result.data : null;
    },
  };
}

/** What "Send a new pin" says once the new pin is on its way. */
export function newPinSentMessage(email: string): string {
  return `We sent a new pin to ${email}. The previous pin no longer works.`;
}

function Failure({ children }: { children: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
      {children}
    </Alert>
  );
}

/**
 * Step 0: the e-mail, then the pin sent to it, which is checked as soon as its 6th digit is typed.
 * With `sendNow` (the e-mail came from the sign-in page) the pin is sent on arrival.
 */
export function EmailStep({ values, update, onNext, sendNow = false }: StepProps & { sendNow?: boolean }) {
  const register = useRegisterEmail();
  const validate = useValidatePin();
  const emailCheck = useStepCheck(signupEmailForm, { email: values.email });
  const [emailError, setEmailError] = useState<string>();
  const [failure, setFailure] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<{ title: string; detail?: string | undefined } | null>(null);
  /** A new pin replaced the first one: say so until the next pin is checked. */
  const [resent, setResent] = useState(false);
  const sent = values.once !== '' && !values.confirmed;

  async function send(event?: FormEvent) {
    event?.preventDefault();
    setFailure(null);
    setEmailError(undefined);
    setResent(false);
    const parsed = emailCheck.submit();
    if (!parsed) return;
    // "Send a new pin": the server ends the pin it replaces.
    const previousOnce = sent ? values.once : undefined;
    try {
      const { once } = await register.mutateAsync({
        email: parsed.email,
        beta: false,
        ...(previousOnce ? { previousOnce } : {}),
      });
      setPin('');
      setPinError(null);
      setResent(previousOnce !== undefined);
      update({ email: parsed.email, once, pin: '', confirmed: false });
    } catch (error) {
      const field = isApiError(error) ? error.errors.find((e) => e.field === 'email') : undefined;
      if (field) setEmailError(field.message);
      else setFailure((isApiError(error) && error.title) || 'The pin could not be sent. Please try again.');
    }
  }

  const sentOnArrival = useRef(false);
  useEffect(() => {
    if (!sendNow || sentOnArrival.current) return;
    sentOnArrival.current = true;
    void send();
    // Only on arrival: `send` reads the values of this render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sendNow]);

  async function check(entered: string) {
    setPinError(null);
    setResent(false);
    try {
      await validate.mutateAsync({ email: values.email, once: values.once, pin: entered });
    } catch (error) {
      setPin('');
      // A 400 is the pin refused; anything else (429, no connection) says what happened.
      const title = isApiError(error) && error.status !== 400 ? error.title : PIN_MESSAGE;
      setPinError({ title: title || PIN_MESSAGE, detail: isApiError(error) ? error.detail : undefined });
      return;
    }
    update({ pin: entered, confirmed: true });
    onNext();
  }

  if (values.confirmed) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} aria-hidden="true" />}>
          {values.email} is confirmed.
        </Alert>
        <Group justify="space-between">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => update({ once: '', pin: '', confirmed: false })}
          >
            Use another e-mail
          </Anchor>
          <Button onClick={onNext}>Next</Button>
        </Group>
      </Stack>
    );
  }

  if (sent) {
    return (
      <Stack gap="md">
        <Text size="sm">
          We sent a {SIGNUP_PIN_LENGTH}-digit pin to <strong>{values.email}</strong>. Enter it below within{' '}
          {SIGNUP_PIN_LIFETIME_MINUTES} minutes.
        </Text>
        <Stack gap={6} align="center">
          <PinInput
            length={SIGNUP_PIN_LENGTH}
            type="number"
            inputMode="numeric"
            oneTimeCode
            autoFocus
            size="md"
            value={pin}
            onChange={setPin}
            onComplete={(value) => void check(value)}
            disabled={validate.isPending}
            error={pinError !== null}
            ariaLabel="Pin"
          />
          {pinError ? (
            <Text size="sm" c="red" role="alert" ta="center">
              {pinError.title}
              {pinError.detail ? ` ${pinError.detail}` : ''}
            </Text>
          ) : null}
        </Stack>
        {resent ? (
          <Alert
            color="green"
            variant="light"
            role="status"
            icon={<IconCircleCheck size={18} aria-hidden="true" />}
          >
            {newPinSentMessage(values.email)}
          </Alert>
        ) : null}
        {failure ? <Failure>{failure}</Failure> : null}
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={() => update({ once: '' })}>
            Change e-mail
          </Anchor>
          <Anchor
            component="button"
            type="button"
            size="sm"
            disabled={register.isPending}
            aria-busy={register.isPending || undefined}
            onClick={() => void send()}
          >
            Send a new pin
          </Anchor>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={(event) => void send(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          value={values.email}
          onChange={(event) => update({ email: event.currentTarget.value })}
          error={emailCheck.errors.email ?? emailError}
        />
        {failure ? <Failure>{failure}</Failure> : null}
        <Button type="submit" fullWidth loading={register.isPending}>
          Send me a pin
        </Button>
      </Stack>
    </form>
  );
}

/** Step 1: the password, with its strength and confirmation; Next only once both agree. */
export function PasswordStep({ values, update, onNext, onBack }: StepProps) {
  const { errors, submit } = useStepCheck(passwordForm, {
    password: values.password,
    confirmPassword: values.confirmPassword,
  });
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  function next(event: FormEvent) {
    event.preventDefault();
    if (submit()) onNext();
  }

  return (
    <form onSubmit={next} noValidate>
      <Stack gap="md">
        <NewPasswordFields
          label="Password"
          autoFocus
          errors={errors}
          password={{
            name: 'password',
            value: values.password,
            ref: passwordRef,
            onChange: (event) => update({ password: event.currentTarget.value }),
          }}
          confirmPassword={{
            name: 'confirmPassword',
            value: values.confirmPassword,
            ref: confirmRef,
            onChange: (event) => update({ confirmPassword: event.currentTarget.value }),
          }}
        />
        <StepButtons onBack={onBack} disabled={!passwordsReady(values)} />
      </Stack>
    </form>
  );
}

/** Step 2: first and last name, both required. */
export function NameStep({ values, update, onNext, onBack }: StepProps) {
  const { errors, submit } = useStepCheck(signupNameForm, {
    firstName: values.firstName,
    lastName: values.lastName,
  });

  function next(event: FormEvent) {
    event.preventDefault();
    if (submit()) onNext();
  }

  return (
    <form onSubmit={next} noValidate>
      <Stack gap="md">
        <TextInput
          label="First name"
          autoComplete="given-name"
          autoFocus
          value={values.firstName}
          onChange={(event) => update({ firstName: event.currentTarget.value })}
          error={errors.firstName}
        />
        <TextInput
          label="Last name"
          autoComplete="family-name"
          value={values.lastName}
          onChange={(event) => update({ lastName: event.currentTarget.value })}
          error={errors.lastName}
        />
        <StepButtons onBack={onBack} />
      </Stack>
    </form>
  );
}

/** Back (when there is a step before) and the submit button of a step. */
export function StepButtons(props: {
  onBack?: (() => void) | undefined;
  disabled?: boolean;
  loading?: boolean;
  label?: string;
}) {
  return (
    <Group justify="space-between" mt="xs">
      {props.onBack ? (
        <Button variant="default" onClick={props.onBack}>
          Back
        </Button>
      ) : (
        <span />
      )}
      <Button type="submit" disabled={props.disabled} loading={props.loading}>
        {props.label ?? 'Next'}
      </Button>
    </Group>
  );
}
