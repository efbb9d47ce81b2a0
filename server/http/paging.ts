import type { FastifyRequest } from 'fastify';
import { MAX_PAGE } from '../../src/domain/schemas/fields';
import type { ParameterDoc } from './openapi';

/** The `page` query parameter of every list, as the OpenAPI document shows it (the struct is pageNumber()). */
export const PAGE_PARAM: ParameterDoc = {
  description: 'Página, desde 1.',
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
};

/** DRF-style absolute link to another page of the same list, keeping every other parameter. */
function pageLink(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** DRF's next and previous links of a page of `count` items (any list, not only invoices). */
export function pageLinks(
  request: FastifyRequest,
  query: { page: number; pageSize: number },
  count: number,
): { next: string | null; previous: string | null } {
  const lastPage = Math.max(1, Math.ceil(count / query.pageSize));
  return {
    next: query.page < lastPage ? pageLink(request, query.page + 1) : null,
    previous: query.page > 1 ? pageLink(request, Math.min(query.page - 1, lastPage)) : null,
  };
}
