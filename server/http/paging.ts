import type { FastifyRequest } from 'fastify';

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
