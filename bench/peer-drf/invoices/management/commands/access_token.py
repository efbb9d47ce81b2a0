from django.core.management.base import BaseCommand, CommandError
from rest_framework_simplejwt.tokens import AccessToken

from accounts.models import User


class Command(BaseCommand):
    help = 'Prints an access token for a username (the bench uses it).'

    def add_arguments(self, parser):
        parser.add_argument('username')

    def handle(self, *args, **options):
        try:
            user = User.objects.get(username__iexact=options['username'])
        except User.DoesNotExist:
            raise CommandError(f"no user {options['username']!r}")
        self.stdout.write(str(AccessToken.for_user(user)))
