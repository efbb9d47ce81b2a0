from rest_framework.pagination import PageNumberPagination


class InvoicePagination(PageNumberPagination):
    """spec §7: page and page_size (25, at most 100); DRF's exact COUNT."""

    page_size = 25
    page_size_query_param = 'page_size'
    max_page_size = 100
