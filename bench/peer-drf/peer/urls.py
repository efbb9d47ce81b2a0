from django.urls import path

from invoices.views import ProviderInvoiceList

urlpatterns = [
    path('api/providers/alliances/', ProviderInvoiceList.as_view()),
]
