import { createBrowserRouter } from 'react-router';
import { apiClient } from '../lib/api-client';
import { routes } from './routes';

/** The browser router, with the api client's "session ended" rule pointed at it. */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  apiClient.configure({ onUnauthorised: () => void router.navigate('/logout') });
  return router;
}
