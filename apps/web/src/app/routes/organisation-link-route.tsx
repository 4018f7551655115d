import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useInitial } from '../../entities/account/api/get-initial';
import { LoadingPage } from '../../components/loading-page';
import { loginPath } from '../../lib/paths';
import { rememberReturnPath } from '../../lib/return-path';

/**
 * /{organisation}/projects/… and /{organisation}/home: a link into one organisation's dashboard in the
 * path form, as chat messages, webhooks and issue comments send them (docs/product.md
 * "Integrations"). Signed in to that organisation, the page opens; otherwise the page is remembered
 * and the organisation's sign-in opens, which comes back to it.
 */
export function OrganisationLinkRoute() {
  const { organisation = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const initial = useInitial();
  const settled = !initial.isPending;
  const signedInHere = initial.data?.organisation.domain === organisation.toLowerCase();
  const page = `/${location.pathname.split('/').slice(2).join('/')}${location.search}${location.hash}`;

  useEffect(() => {
    if (!settled) return;
    if (!signedInHere) rememberReturnPath(page);
    void navigate(signedInHere ? page : loginPath(organisation), { replace: true });
  }, [settled, signedInHere, page, organisation, navigate]);

  return <LoadingPage />;
}
