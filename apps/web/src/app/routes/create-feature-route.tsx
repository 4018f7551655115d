import { CreateFeaturePage } from '../../features/feature-create/components/create-feature-page';

/** /features/create (spec §2 "Create feature page"). */
export function CreateFeatureRoute() {
  return <CreateFeaturePage />;
}
