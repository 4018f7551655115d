import { useEffect } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Navigate, useParams } from 'react-router';
import { FlagsProvider } from '../../../lib/flags';
import { PublicPage } from '../../../components/public-page';
import { LoadingPage } from '../../../components/loading-page';
import { forgetOrganisation, readRememberedOrganisation } from '../../../lib/remembered-organisation';
import { usePublicContext } from '../api/get-public-context';
import { LoginForm } from './login-form';
import { OrganisationForm } from './organisation-form';

/**
 * /login and /{organisation}/login. The organisation comes from the path, else from the host; on the
 * bare app address a remembered organisation is reopened, otherwise the user names it.
 */
export function LoginPage() {
  const { organisation: pathDomain } = useParams();
  const domain = pathDomain?.toLowerCase();
  const context = usePublicContext(domain);
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

  const { organisation, flags } = context.data;
  if (!organisation && !domain && remembered) return <Navigate to={`/${remembered}/login`} replace />;

  return (
    <FlagsProvider flags={flags}>
      <PublicPage>
        {organisation ? (
          <LoginForm organisation={organisation} canChooseOrganisation={Boolean(domain)} />
        ) : (
          <OrganisationForm unknownDomain={unknownDomain} />
        )}
      </PublicPage>
    </FlagsProvider>
  );
}
