import { useEffect, useState } from 'react';
import { Anchor, Box, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { OrganisationStep } from './signup-organisation-step';
import {
  EMPTY_SIGNUP,
  clearSignup,
  hasConfirmedSignup,
  loadSignup,
  saveSignup,
  type SignupValues,
} from './signup-state';
import { EmailStep, NameStep, PasswordStep } from './signup-steps';

const STEPS = [
  { label: 'E-mail', title: 'Confirm your e-mail', intro: 'We will send you a pin to confirm it is yours.' },
  {
    label: 'Password',
    title: 'Choose a password',
    intro: 'You will sign in with your e-mail and this password.',
  },
  { label: 'Name', title: 'Your name', intro: 'How your team will see you.' },
  {
    label: 'Organisation',
    title: 'Your organisation',
    intro: 'Its name, and the domain its members sign in at.',
  },
] as const;

/**
 * /signup (docs/product.md §4 "Signup wizard"): 0 confirm the e-mail with a pin, 1 password, 2 name,
 * 3 organisation; Back keeps what was typed. A reload resumes at the confirmed e-mail (the password
 * is asked again).
 */
export function SignupWizardPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // The bare sign-in page hands over the e-mail typed there (docs/product.md §2 "/login").
  const handedOver = signupEmailOf(location.state);
  const [values, setValues] = useState<SignupValues>(() =>
    handedOver !== null ? { ...EMPTY_SIGNUP, email: handedOver } : (loadSignup() ?? EMPTY_SIGNUP),
  );
  const [step, setStep] = useState(() => (values.confirmed ? 1 : 0));
  const [sendPinNow] = useState(handedOver !== null);

  useEffect(() => {
    // Sent once: a reload or Back must not send another pin.
    if (handedOver !== null) void navigate('.', { replace: true, state: null });
  }, [handedOver, navigate]);

  useEffect(() => saveSignup(values), [values]);

  const update = (changes: Partial<SignupValues>) => setValues((current) => ({ ...current, ...changes }));
  const next = () => setStep((current) => Math.min(current + 1, STEPS.length - 1));
  const back = () => setStep((current) => Math.max(current - 1, 0));
  const restart = () => {
    clearSignup();
    setValues({ ...EMPTY_SIGNUP, email: values.email });
    setStep(0);
  };
  const current = STEPS[step]!;
  const props = { values, update, onNext: next, onBack: back };

  return (
    <PublicPage
      footer={
        <>
          Already have an organisation?{' '}
          <Anchor component={Link} to="/login" size="sm">
            Sign in
          </Anchor>
        </>
      }
    >
      <Stack gap="lg">
        <SimpleGrid cols={STEPS.length} spacing={6} role="list" aria-label="Sign-up progress">
          {STEPS.map((s, index) => (
            <Stack key={s.label} gap={4} role="listitem" aria-current={index === step ? 'step' : undefined}>
              <Box
                h={4}
                style={{ borderRadius: 2 }}
                bg={
                  index <= step
                    ? 'var(--mantine-primary-color-filled)'
                    : 'var(--mantine-color-default-border)'
                }
              />
              <Text
                size="xs"
                fw={index === step ? 700 : 500}
                c={index <= step ? undefined : 'dimmed'}
                visibleFrom="xs"
              >
                {s.label}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Step {step + 1} of {STEPS.length} · {current.label}
          </Text>
          <Title order={1} fz={24}>
            {current.title}
          </Title>
          <Text size="sm" c="dimmed">
            {current.intro}
          </Text>
        </Stack>
        {step === 0 ? <EmailStep {...props} onBack={undefined} sendNow={sendPinNow} /> : null}
        {step === 1 ? <PasswordStep {...props} onBack={() => setStep(0)} /> : null}
        {step === 2 ? <NameStep {...props} /> : null}
        {step === 3 ? <OrganisationStep {...props} onRestart={restart} /> : null}
      </Stack>
    </PublicPage>
  );
}

/** The e-mail in the history state the bare sign-in page navigates with, if any. */
function signupEmailOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('signupEmail' in state)) return null;
  return typeof state.signupEmail === 'string' ? state.signupEmail : null;
}

/** /activate: the wizard again for a sign-up confirmed in this tab, else /login (docs/product.md §2). */
export function ActivatePage() {
  if (!hasConfirmedSignup()) return <Navigate to="/login" replace />;
  return <SignupWizardPage />;
}
