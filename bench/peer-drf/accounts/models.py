"""Flujo's users and companies, read-only: Flujo's migrations own them."""
from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models


class Company(models.Model):
    rfc = models.TextField(unique=True)
    name = models.TextField()

    class Meta:
        managed = False
        db_table = 'companies'


class User(AbstractBaseUser):
    username = models.TextField(unique=True)
    email = models.TextField()
    # Flujo's hash format is its own; the peer never checks a password
    # (tokens come from `manage.py access_token`).
    password = models.TextField(db_column='password_hash')
    # Flujo keeps no last_login column.
    last_login = None
    first_name = models.TextField()
    last_name = models.TextField()
    is_active = models.BooleanField()
    company = models.ForeignKey(
        Company, null=True, on_delete=models.DO_NOTHING, related_name='users'
    )

    objects = BaseUserManager()

    USERNAME_FIELD = 'username'
    EMAIL_FIELD = 'email'
    REQUIRED_FIELDS = ['email']

    class Meta:
        managed = False
        db_table = 'users'
