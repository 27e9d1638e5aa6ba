# Starts the machine's PostgreSQL and Redis if they are down, and exports TEST_DATABASE_URL and TEST_REDIS_URL for
# the scale-out tests. Source it from .ci/run (`. .ci/services.sh`); where a service cannot be had, its variable
# stays unset and the scale-out suite reports itself skipped, with the reason.
# Not DATABASE_URL/REDIS_URL themselves: every server a test starts from the environment (the browser tests' one)
# would then run on the shared `test` database and a Redis queue with no worker, and its jobs would never run.

_aie_wait() { # command, what: retries for up to 20 s
  for _ in $(seq 1 40); do
    if eval "$1" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "services.sh: $2 did not come up" >&2
  return 1
}

if command -v pg_isready >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    echo "services.sh: starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  if _aie_wait "pg_isready -q -h 127.0.0.1 -p 5432" PostgreSQL; then
    export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/test"
  fi
else
  echo "services.sh: no PostgreSQL on this machine"
fi

if command -v redis-server >/dev/null 2>&1; then
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    echo "services.sh: starting Redis"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  fi
  if _aie_wait "redis-cli -h 127.0.0.1 -p 6379 ping" Redis; then
    export TEST_REDIS_URL="redis://127.0.0.1:6379"
  fi
else
  echo "services.sh: no Redis on this machine"
fi

unset -f _aie_wait
echo "services.sh: TEST_DATABASE_URL=${TEST_DATABASE_URL:-unset} TEST_REDIS_URL=${TEST_REDIS_URL:-unset}"
