"""gunicorn settings for ``make serve`` and the systemd unit (``deploy/schafkopf.service``).

gunicorn: a plain, widely packaged pre-fork WSGI server with no C build step; WhiteNoise serves
the static files from the same processes, so no web server is needed on a local network.
Each variable below can be overridden from the environment (``GUNICORN_WORKERS=4``).
"""

import os
import time

from config.settings import TIME_ZONE

# Django sets the process's local time to TIME_ZONE when a worker loads the app; the master logs
# before that and would stay in UTC, so one log mixed +0000 and +0100 (issue 29). Both in the
# club's zone from the start.
os.environ["TZ"] = TIME_ZONE
time.tzset()

# Two processes of four threads serve a club's evening comfortably on a small machine (a hand save
# is a few milliseconds of database work); more workers only for many clubs on one server.
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))  # a season's PDF on a slow machine
graceful_timeout = 20
# Access and error log to the console (journald under systemd).
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# Only the proxy on this machine may set X-Forwarded-* (DJANGO_BEHIND_PROXY=1).
forwarded_allow_ips = "127.0.0.1,::1"
# gunicorn's runtime control socket is one per user ($HOME/.gunicorn): two servers of one user
# would fight over it, and nothing here uses it.
control_socket_disable = True
