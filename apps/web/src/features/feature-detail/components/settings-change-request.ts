import { useState } from 'react';
import type { Feature, FeatureInput } from '@vexil/core';
import { hasErrorCode, type ApiError } from '../../../lib/api-client';
import {
  featureSettingsChangeRequestTitle,
  useAddToChangeRequest,
} from '../../../entities/change-requests/hooks/use-add-to-change-request';

/** Where the settings go once a save was refused: an environment's change requests, and the request there. */
type Destination = { environmentKey: string; changeRequestId: string | null };

/** What the form says while it holds exactly what it put into a change request. */
export const SETTINGS_IN_REQUEST_MESSAGE =
  'Your edit is in a change request: it goes live once the request is applied.';

/**
 * How the Settings tab saves once the project asks for change requests
 * (docs/adr/0024-change-requests.md). A feature's settings apply to every environment, so any
 * protected environment of the project protects them; the form learns it from a save refused with 409
 * `change_request_required`, which names the environment whose requests the change goes through (not
 * necessarily the page's) and the user's request there, if any. From then on Update feature reads "Add
 * to change request" and puts the edit (the body the save sent, with the feature's id) into that
 * request, or a new draft "Change {feature} settings" there. The form keeps the edit either way.
 */
export function useSettingsChangeRequest(
  feature: Pick<Feature, 'id' | 'name' | 'projectKey'>,
  pageEnvironmentKey: string,
) {
  const toChangeRequest = useAddToChangeRequest();
  const [destination, setDestination] = useState<Destination | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The form's values last put into a change request, as JSON.
  const [added, setAdded] = useState<string | null>(null);

  return {
    /** Update feature adds to a change request rather than saving live. */
    throughRequest: destination !== null,
    refusal,
    isPending: toChangeRequest.isPending,
    /** Whether the form holds what was last added, by its values' signature. */
    holdsAdded: (signature: string) => added === signature,
    /** Takes a failed save: true when it was refused for want of a change request. */
    refused(error: unknown): error is ApiError {
      if (!hasErrorCode(error, 'change_request_required')) return false;
      setRefusal(error.title ?? 'This project asks for change requests.');
      setDestination({
        environmentKey: error.environmentKey ?? pageEnvironmentKey,
        changeRequestId: error.changeRequestId ?? null,
      });
      return true;
    },
    /** Adds the settings (as the save would send them) to the change request; rejects with the failure. */
    async add(settings: FeatureInput, signature: string): Promise<void> {
      const where = destination ?? { environmentKey: pageEnvironmentKey, changeRequestId: undefined };
      const request = await toChangeRequest.add({
        projectKey: feature.projectKey,
        environmentKey: where.environmentKey,
        title: featureSettingsChangeRequestTitle(feature.name),
        change: { kind: 'feature', ...settings, id: feature.id },
        changeRequestId: where.changeRequestId,
      });
      setDestination({ environmentKey: request.environmentKey, changeRequestId: request.id });
      setAdded(signature);
    },
  };
}
