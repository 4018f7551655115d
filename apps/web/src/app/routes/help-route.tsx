import { HelpPage } from '../../features/help/components/help-page';
import { useSession } from '../../lib/session';
import { useCurrentEnvironment } from '../shell/use-current-environment';

/**
 * /help (docs/product.md §2 "Help page"), given the session's projects and the environment the user works
 * in (features may not read app/'s context themselves).
 */
export function HelpRoute() {
  const { projects } = useSession();
  const current = useCurrentEnvironment();
  return <HelpPage projects={projects} current={current} />;
}
