import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { segmentSchema, type Segment, type SegmentInput } from '@vexil/core';
import { useSegmentsChanged } from './segments-cache';

export type SegmentUpdate = SegmentInput & { id: string };

/**
 * PUT /api/v2/segments/ → 200 with the segment. Only name and description change; the key must be the
 * segment's own. Errors are the form's to show, so no generic toasts.
 */
export function updateSegment(input: SegmentUpdate): Promise<Segment> {
  return apiClient.put('/api/v2/segments/', input, { schema: segmentSchema, notifyErrors: false });
}

export function useUpdateSegment() {
  const changed = useSegmentsChanged();
  return useMutation({
    mutationFn: updateSegment,
    onSuccess: () => void changed(),
  });
}
