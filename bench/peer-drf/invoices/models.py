"""Flujo's invoices, read-only: the columns the list item shows (spec §3)."""
from django.db import models

from accounts.models import Company


class Invoice(models.Model):
    cfdi_uuid = models.TextField(unique=True)
    serie = models.TextField(null=True)
    folio = models.TextField(null=True)
    emitter_company = models.ForeignKey(
        Company, on_delete=models.DO_NOTHING, related_name='issued_invoices'
    )
    receiver_company = models.ForeignKey(
        Company, on_delete=models.DO_NOTHING, related_name='received_invoices'
    )
    emitter_rfc = models.TextField()
    emitter_name = models.TextField()
    receiver_rfc = models.TextField()
    receiver_name = models.TextField()
    date_of_emission = models.DateField()
    payment_date = models.DateField(null=True)
    amount = models.DecimalField(max_digits=18, decimal_places=2)
    currency = models.CharField(max_length=3)
    exchange_rate = models.DecimalField(
        max_digits=18, decimal_places=6, null=True
    )
    amount_with_exchange_rate = models.DecimalField(
        max_digits=18, decimal_places=2
    )
    description = models.TextField()
    status = models.SmallIntegerField()
    factoring_date = models.DateField(null=True)
    factoring_rate = models.DecimalField(
        max_digits=7, decimal_places=4, null=True
    )
    cost_consultancy = models.DecimalField(
        max_digits=18, decimal_places=2, null=True
    )

    class Meta:
        managed = False
        db_table = 'invoices'
