import { LinkFeaturePage } from '../../features/feature-create/components/link-feature-page';

/** /features/link: links an issue to an existing feature. */
export function LinkFeatureRoute() {
  return <LinkFeaturePage />;
}
