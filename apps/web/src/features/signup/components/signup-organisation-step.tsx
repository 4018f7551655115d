import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Loader, Stack, Text, TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import {
  DOMAIN_UNAVAILABLE_MESSAGE,
  ORGANISATION_DOMAIN_MIN_LENGTH,
  SIGNUP_FAILED_MESSAGE,
  normaliseOrganisationDomain,
  signupOrganisationForm,
  typedOrganisationDomain,
} from '@vexil/core';
import { isApiError } from '../../../lib/api-client';
import { useCreateAccount, useDomainCheck } from '../api/signup-wizard';
import { clearSignup } from './signup-state';
import { StepButtons, useStepCheck, type StepProps } from './signup-steps';

/** How long typing must pause before the domain is checked. */
const DOMAIN_CHECK_DELAY_MS = 400;
const ACCOUNT_FIELDS = new Set(['email', 'once', 'pin']);

/**
 * The domain field shows what it will be as it is typed ("Ab C" reads "ab-c"), with the caret kept
 * where it was among the characters: the text before it is cleaned the same way to tell where.
 */
function DomainField({
  value,
  onTyped,
  onBlur,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: string;
  onTyped: (domain: string) => void;
  onBlur: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caret.current === null || document.activeElement !== input.current) return;
    input.current?.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });
  return (
    <TextInput
      {...props}
      ref={input}
      value={value}
      onChange={(event) => {
        const { value: text, selectionStart } = event.currentTarget;
        const domain = typedOrganisationDomain(text);
        caret.current =
          selectionStart === null
            ? null
            : Math.min(typedOrganisationDomain(text.slice(0, selectionStart)).length, domain.length);
        onTyped(domain);
      }}
      onBlur={onBlur}
    />
  );
}

/**
 * Step 3: the organisation's name and domain (derived from the name until typed), the domain checked
 * as it is typed with free suggestions when taken; Create my organisation signs the new admin in.
 */
export function OrganisationStep(props: StepProps & { onRestart: () => void }) {
  const { values, update, onBack, onRestart } = props;
  const navigate = useNavigate();
  const create = useCreateAccount();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ message: string; restart: boolean } | null>(null);

  const rawDomain = values.domainTouched
    ? values.organisationDomain
    : normaliseOrganisationDomain(values.organisationName);
  const domain = normaliseOrganisationDomain(rawDomain);
  const [settled] = useDebouncedValue(domain, DOMAIN_CHECK_DELAY_MS);
  const checkable = settled === domain && domain.length >= ORGANISATION_DOMAIN_MIN_LENGTH;
  const check = useDomainCheck(checkable ? domain : null);
  const suggestions = checkable && check.data?.available === false ? check.data.suggestions : null;
  const unavailable = suggestions !== null;
  const formCheck = useStepCheck(signupOrganisationForm, {
    organisationName: values.organisationName,
    organisationDomain: rawDomain,
  });
  const errors = { ...serverErrors, ...formCheck.errors };
  const domainError = errors.organisationDomain ?? (unavailable ? DOMAIN_UNAVAILABLE_MESSAGE : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = formCheck.submit();
    if (!parsed) return;
    if (unavailable) return;
    let answer;
    try {
      answer = await create.mutateAsync({
        email: values.email,
        once: values.once,
        pin: values.pin,
        firstName: values.firstName,
        lastName: values.lastName,
        password: values.password,
        confirmPassword: values.confirmPassword,
        ...parsed,
      });
    } catch (error) {
      // No answer, a server failure, or a 200 without a token: nothing says what went wrong.
      if (!isApiError(error) || error.status < 400 || error.status >= 500)
        return setFailure({ message: SIGNUP_FAILED_MESSAGE, restart: false });
      const fields = error.errors.filter(
        (e) => e.field === 'organisationName' || e.field === 'organisationDomain',
      );
      if (fields.length > 0)
        return setServerErrors(Object.fromEntries(fields.map((e) => [e.field, e.message])));
      const restart = error.errors.some((e) => ACCOUNT_FIELDS.has(e.field));
      return setFailure({ message: [error.title, error.detail].filter(Boolean).join(' '), restart });
    }
    if (!answer.token) return setFailure({ message: SIGNUP_FAILED_MESSAGE, restart: false });
    clearSignup();
    await navigate(`/login/${encodeURIComponent(answer.token)}?domain=${encodeURIComponent(answer.domain)}`, {
      replace: true,
    });
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Organisation name"
          autoComplete="organization"
          autoFocus
          value={values.organisationName}
          onChange={(event) => {
            setServerErrors({});
            update({ organisationName: event.currentTarget.value });
          }}
          error={errors.organisationName}
        />
        <DomainField
          label="Domain"
          autoCapitalize="none"
          spellCheck={false}
          value={rawDomain}
          onTyped={(typed) => {
            setServerErrors({});
            update({ organisationDomain: typed, domainTouched: true });
          }}
          // A separator typed last waits for the next word; leaving the field drops it.
          onBlur={() => {
            if (values.domainTouched && domain !== rawDomain) update({ organisationDomain: domain });
          }}
          description={
            domain
              ? `Your sign-in address: ${window.location.host}/${domain}/login`
              : 'Letters, digits and hyphens, at least 4 characters'
          }
          error={domainError}
          rightSection={check.isFetching ? <Loader size={16} aria-label="Checking the domain" /> : null}
        />
        {checkable && check.data?.available ? (
          <Group gap={6} c="green.8">
            <IconCircleCheck size={16} aria-hidden="true" />
            <Text size="sm">{domain} is available</Text>
          </Group>
        ) : null}
        {suggestions && suggestions.length > 0 ? (
          <Stack gap={6}>
            <Text size="sm" c="dimmed">
              These are free:
            </Text>
            <Group gap="xs">
              {suggestions.map((suggestion) => (
                <Button
                  key={suggestion}
                  size="compact-sm"
                  variant="light"
                  onClick={() => update({ organisationDomain: suggestion, domainTouched: true })}
                >
                  {suggestion}
                </Button>
              ))}
            </Group>
          </Stack>
        ) : null}
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            role="alert"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{failure.message}</Text>
              {failure.restart ? (
                <Button size="compact-sm" variant="light" color="red" onClick={onRestart}>
                  Start again
                </Button>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <StepButtons onBack={onBack} loading={create.isPending} label="Create my organisation" />
      </Stack>
    </form>
  );
}
