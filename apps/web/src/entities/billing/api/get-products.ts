import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { productSchema, type Product } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { billingKeys } from './query-keys';

/** GET /api/v1/products/: the plans on sale, each with its prices by interval. Failures are said in place. */
export function getProducts(signal?: AbortSignal): Promise<Product[]> {
  return apiClient.get('/api/v1/products/', { schema: z.array(productSchema), notifyErrors: false, signal });
}

export const productsQueryOptions = queryOptions({
  queryKey: billingKeys.products(),
  queryFn: ({ signal }) => getProducts(signal),
});

export function useProducts() {
  return useQuery(productsQueryOptions);
}
