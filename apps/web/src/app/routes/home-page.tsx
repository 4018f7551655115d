import { Home } from '../../features/home/components/home';

/** / and /home (docs/product.md §2 "Home page"). */
export function HomePage() {
  return <Home />;
}
