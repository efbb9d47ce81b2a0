"""
gunicorn for the peer: one worker process per core, each gunicorn's threaded
worker (gthread) with 2 x cores threads.

Not the sync worker: it closes the connection after every response (gunicorn
expects nginx in front of it), and a keep-alive load generator such as the
bench's autocannon then loses a request at each close (one in four failed in a
trial). gthread keeps connections alive. gunicorn's docs advise 2-4 x cores
threads; one process per core measured better here than the (2 x cores) + 1
processes the docs advise for sync workers (README.md).
"""
import multiprocessing

wsgi_app = 'peer.wsgi:application'
bind = '127.0.0.1:8000'
worker_class = 'gthread'
workers = multiprocessing.cpu_count()
threads = 2 * multiprocessing.cpu_count()
loglevel = 'warning'
