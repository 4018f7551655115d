import { CreateFeaturePage } from '../../features/feature-create/components/create-feature-page';

/** /features/create (docs/product.md §2 "Create feature page"). */
export function CreateFeatureRoute() {
  return <CreateFeaturePage />;
}
