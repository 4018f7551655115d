import { Home } from '../../features/home/components/home';

/** / and /home (spec §2 "Home page"). */
export function HomePage() {
  return <Home />;
}
