import { Suspense, lazy, useEffect } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Navigate, useLocation, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { initialQueryOptions } from '../../../entities/account/api/get-initial';
import { FlagsProvider } from '../../../lib/flags';
import { PublicPage } from '../../../components/public-page';
import { LoadingPage } from '../../../components/loading-page';
import { forgetOrganisation, readRememberedOrganisation } from '../../../lib/remembered-organisation';
import { usePublicContext } from '../api/get-public-context';
import { LoginForm } from './login-form';
import { SignedInElsewhere } from './signed-in-elsewhere';

/** The bare app address's form loads on first use: most visits sign in to a known organisation. */
const OrganisationForm = lazy(() =>
  import('./organisation-form').then((module) => ({ default: module.OrganisationForm })),
);

/**
 * /login and /{organisation}/login. The organisation comes from the path, else from the host; on the
 * bare app address a remembered organisation is reopened, otherwise the user names it. A single
 * sign-on that failed comes back here with `?sso={reason}`, which the form explains. Signed in to
 * another organisation, the page says so above the form and offers to sign out.
 */
export function LoginPage() {
  const { organisation: pathDomain } = useParams();
  const { search } = useLocation();
  const domain = pathDomain?.toLowerCase();
  const context = usePublicContext(domain);
  // Signed in to another organisation (RedirectIfSignedIn lets this page show then): say so. The
  // session as RedirectIfSignedIn loaded it, never fetched again from here: a signed-out visitor's
  // 401 would be asked again on every mount.
  const session = useQuery({ ...initialQueryOptions, enabled: false }).data;
  const remembered = domain ? null : readRememberedOrganisation();
  const unknownDomain = domain && context.data && !context.data.organisation ? domain : undefined;

  useEffect(() => {
    // A remembered organisation that no longer exists must not keep sending the user to it.
    if (unknownDomain && readRememberedOrganisation() === unknownDomain) forgetOrganisation();
  }, [unknownDomain]);

  if (context.isPending) return <LoadingPage />;
  if (context.isError) {
    return (
      <PublicPage>
        <Stack gap="md">
          <Alert color="red" variant="light" title="Sign in is unavailable" role="alert">
            <Text size="sm">{context.error.message}</Text>
          </Alert>
          <Button onClick={() => void context.refetch()} loading={context.isFetching}>
            Try again
          </Button>
        </Stack>
      </PublicPage>
    );
  }

  const { organisation, flags, sso, baseDomain } = context.data;
  // The query (a single sign-on's failure) goes along.
  if (!organisation && !domain && remembered) {
    return <Navigate to={{ pathname: `/${remembered}/login`, search }} replace />;
  }

  return (
    <FlagsProvider flags={flags}>
      {/* The single sign-on part of the form loads on first use: Loading until it is there. */}
      <Suspense fallback={<LoadingPage />}>
        <PublicPage>
          {organisation ? (
            <Stack gap="lg">
              {session && session.organisation.domain !== organisation.domain ? (
                <SignedInElsewhere
                  organisationName={session.organisation.name}
                  email={session.principalUser.email}
                />
              ) : null}
              <LoginForm
                organisation={organisation}
                canChooseOrganisation={Boolean(domain)}
                sso={sso}
                ssoFailure={new URLSearchParams(search).get('sso')}
              />
            </Stack>
          ) : (
            <OrganisationForm unknownDomain={unknownDomain} baseDomain={baseDomain} />
          )}
        </PublicPage>
      </Suspense>
    </FlagsProvider>
  );
}
