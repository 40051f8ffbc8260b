import { z } from 'zod';
import { offeredProductsResponse } from '../../../domain/schemas/offered-products';
import {
  createProductSchema,
  newProductVersionSchema,
  productDetailDto,
  productListResponse,
  productStatusChangeSchema,
} from '../../../domain/schemas/products';
import { currentUser, requirePermission } from '../../auth/plugin';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { listOfferedProducts } from './list-offered-products';
import { getProduct, listProducts } from './list-products';
import { addProductVersion, changeProductStatus, createProduct } from './save-product';

const readers = requirePermission('product.view');
const managers = requirePermission('product.manage');
const idParams = z.object({ id: z.uuid({ error: 'PRODUCT_NOT_FOUND' }) });

/** Loan products (issue #31, docs/decisions/034): the back office's catalogue and what a borrower is offered. */
export function productRoutes(app: App, deps: AppDeps) {
  app.get(
    '/products',
    {
      preValidation: requirePermission('application.apply'),
      schema: {
        tags: ['applications'],
        summary:
          'The loan products offered to the signed-in borrower, each with the amounts they may ask for',
        response: { 200: offeredProductsResponse, ...errorResponses },
      },
    },
    (request) => listOfferedProducts(deps, currentUser(request).id),
  );

  app.get(
    '/staff/products',
    {
      preValidation: readers,
      schema: {
        tags: ['products'],
        summary: 'Every loan product with its current version',
        response: { 200: productListResponse, ...errorResponses },
      },
    },
    () => listProducts(deps),
  );

  app.get(
    '/staff/products/:id',
    {
      preValidation: readers,
      schema: {
        tags: ['products'],
        summary: 'One loan product with every version, newest first',
        params: idParams,
        response: { 200: productDetailDto, ...errorResponses },
      },
    },
    (request) => getProduct(deps, request.params.id),
  );

  app.post(
    '/staff/products',
    {
      preValidation: managers,
      config: { inputErrorCode: 'PRODUCT_INVALID' },
      schema: {
        tags: ['products'],
        summary: 'Create a loan product (version 1, offered at once); refused above the legal ceilings',
        body: createProductSchema,
        response: { 201: productDetailDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = await createProduct(deps, staffContext(request), request.body);
      return reply.status(201).send(await getProduct(deps, id));
    },
  );

  app.post(
    '/staff/products/:id/versions',
    {
      preValidation: managers,
      config: { inputErrorCode: 'PRODUCT_INVALID' },
      schema: {
        tags: ['products'],
        summary: 'Edit a loan product: the new terms become its next version; signed loans keep theirs',
        params: idParams,
        body: newProductVersionSchema,
        response: { 201: productDetailDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      await addProductVersion(deps, staffContext(request), request.params.id, request.body);
      return reply.status(201).send(await getProduct(deps, request.params.id));
    },
  );

  for (const [path, status] of [
    ['retire', 'retired'],
    ['reactivate', 'active'],
  ] as const) {
    app.post(
      `/staff/products/:id/${path}`,
      {
        preValidation: managers,
        config: { inputErrorCode: 'REASON_REQUIRED' },
        schema: {
          tags: ['products'],
          summary:
            status === 'retired'
              ? 'Retire a loan product: no new applications under it (a new version, with a reason)'
              : 'Offer a retired loan product again (a new version, with a reason)',
          params: idParams,
          body: productStatusChangeSchema,
          response: { 200: productDetailDto, ...errorResponses },
        },
      },
      async (request) => {
        await changeProductStatus(deps, staffContext(request), request.params.id, status, request.body);
        return getProduct(deps, request.params.id);
      },
    );
  }
}
