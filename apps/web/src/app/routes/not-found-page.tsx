import { NotFound } from '../../components/not-found';

/** The catch-all of the authenticated area. */
export function NotFoundPage() {
  return <NotFound />;
}
