from rest_framework import generics, permissions

from .models import Invoice
from .serializers import InvoiceListSerializer


class HasCompany(permissions.BasePermission):
    message = 'Tu usuario no pertenece a ninguna empresa.'

    def has_permission(self, request, view):
        return request.user.company_id is not None


class ProviderInvoiceList(generics.ListAPIView):
    """GET /api/providers/alliances/: the provider's issued invoices.

    Newest emission first, then the highest id, as Flujo orders its lists.
    """

    serializer_class = InvoiceListSerializer
    permission_classes = [permissions.IsAuthenticated, HasCompany]

    def get_queryset(self):
        return Invoice.objects.filter(
            emitter_company_id=self.request.user.company_id
        ).order_by('-date_of_emission', '-id')
