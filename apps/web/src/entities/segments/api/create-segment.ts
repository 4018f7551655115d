import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { segmentSchema, type Segment, type SegmentInput } from '@vexil/core';
import { useSegmentsChanged } from './segments-cache';

export type NewSegment = Omit<SegmentInput, 'id'>;

/**
 * POST /api/v2/segments/ → 201 with the segment (its key cleaned like a feature key). Errors are the
 * form's to show (400 with field errors, 403 with a title), so no generic toasts.
 */
export function createSegment(input: NewSegment): Promise<Segment> {
  return apiClient.post('/api/v2/segments/', input, { schema: segmentSchema, notifyErrors: false });
}

export function useCreateSegment() {
  const changed = useSegmentsChanged();
  return useMutation({
    mutationFn: createSegment,
    onSuccess: () => void changed(),
  });
}
