"""
Settings of the peer, from the environment as a deployed project reads them.

DATABASE_URL  postgres://user:password@host:port/name: Flujo's own database,
              which the peer only reads
SECRET_KEY    signs the access tokens (simplejwt's SIGNING_KEY defaults to
              it); required
DEBUG         "1" for development; off unless set
ACCESS_TOKEN_MINUTES  access-token lifetime (default 60: one token serves a
              whole bench run)
CONN_MAX_AGE  seconds a worker keeps its database connection (default 600:
              persistent connections, as Django advises for production)
"""
import os
from datetime import timedelta
from urllib.parse import unquote, urlparse

DEBUG = os.environ.get('DEBUG') == '1'
SECRET_KEY = os.environ['SECRET_KEY']
ALLOWED_HOSTS = os.environ.get(
    'ALLOWED_HOSTS', '127.0.0.1,localhost'
).split(',')

INSTALLED_APPS = [
    'django.contrib.contenttypes',
    'django.contrib.auth',
    'rest_framework',
    'accounts',
    'invoices',
]

# An API-only project: no sessions, CSRF, messages or admin.
MIDDLEWARE = [
    'django.middleware.security.SecurityMiddleware',
    'django.middleware.common.CommonMiddleware',
]

ROOT_URLCONF = 'peer.urls'
WSGI_APPLICATION = 'peer.wsgi.application'


def database_from_url(url):
    parts = urlparse(url)
    return {
        'ENGINE': 'django.db.backends.postgresql',
        'NAME': unquote(parts.path.lstrip('/')),
        'USER': unquote(parts.username or ''),
        'PASSWORD': unquote(parts.password or ''),
        'HOST': parts.hostname or '',
        'PORT': str(parts.port or ''),
        'CONN_MAX_AGE': int(os.environ.get('CONN_MAX_AGE', '600')),
    }


DATABASES = {'default': database_from_url(os.environ['DATABASE_URL'])}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'

# Flujo's users table through an unmanaged model: the peer never migrates.
AUTH_USER_MODEL = 'accounts.User'

LANGUAGE_CODE = 'es-mx'
# Flujo's business day is Mexico City's (days_payable counts from it).
TIME_ZONE = 'America/Mexico_City'
USE_I18N = True
USE_TZ = True

REST_FRAMEWORK = {
    'DEFAULT_AUTHENTICATION_CLASSES': [
        'rest_framework_simplejwt.authentication.JWTAuthentication',
    ],
    'DEFAULT_PERMISSION_CLASSES': [
        'rest_framework.permissions.IsAuthenticated',
    ],
    'DEFAULT_RENDERER_CLASSES': [
        'rest_framework.renderers.JSONRenderer',
    ],
    'DEFAULT_PAGINATION_CLASS': 'invoices.pagination.InvoicePagination',
    'PAGE_SIZE': 25,
}

SIMPLE_JWT = {
    'ACCESS_TOKEN_LIFETIME': timedelta(
        minutes=int(os.environ.get('ACCESS_TOKEN_MINUTES', '60'))
    ),
    'AUTH_HEADER_TYPES': ('Bearer',),
}

LOGGING = {
    'version': 1,
    'disable_existing_loggers': False,
    'handlers': {'console': {'class': 'logging.StreamHandler'}},
    'root': {'handlers': ['console'], 'level': 'WARNING'},
}
