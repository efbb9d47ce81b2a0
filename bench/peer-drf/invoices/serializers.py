from django.utils import timezone
from rest_framework import serializers

from .models import Invoice


class InvoiceListSerializer(serializers.ModelSerializer):
    """The list item of spec §3, field for field as Flujo sends it."""

    fiscal_folio = serializers.CharField(source='cfdi_uuid')
    serie_folio = serializers.SerializerMethodField()
    days_payable = serializers.SerializerMethodField()
    amount_with_exchange_rate_usd = serializers.SerializerMethodField()
    exchange_rate = serializers.SerializerMethodField()
    factoring_rate = serializers.FloatField()

    class Meta:
        model = Invoice
        fields = [
            'id',
            'fiscal_folio',
            'serie_folio',
            'emitter_name',
            'emitter_rfc',
            'receiver_name',
            'receiver_rfc',
            'date_of_emission',
            'payment_date',
            'amount',
            'description',
            'status',
            'days_payable',
            'factoring_date',
            'amount_with_exchange_rate',
            'amount_with_exchange_rate_usd',
            'exchange_rate',
            'cost_consultancy',
            'factoring_rate',
        ]
        read_only_fields = fields

    def get_serie_folio(self, invoice):
        if not invoice.folio:
            return None
        if invoice.serie:
            return f'{invoice.serie}-{invoice.folio}'
        return invoice.folio

    def get_days_payable(self, invoice):
        if invoice.payment_date is None:
            return None
        return (invoice.payment_date - timezone.localdate()).days

    def get_amount_with_exchange_rate_usd(self, invoice):
        if invoice.currency != 'USD':
            return None
        return serializers.DecimalField(
            max_digits=18, decimal_places=2
        ).to_representation(invoice.amount)

    def get_exchange_rate(self, invoice):
        """SAT's TipoCambio without trailing zeros, at least two decimals.

        '-' when the CFDI has none.
        """
        if invoice.exchange_rate is None:
            return '-'
        whole, _, fraction = f'{invoice.exchange_rate:f}'.partition('.')
        return f"{whole}.{fraction.rstrip('0').ljust(2, '0')}"
