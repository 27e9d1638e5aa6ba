// Container health check (Dockerfile HEALTHCHECK, docker-compose healthcheck): exits 0 when the URL answers 2xx
// within 4 s. `node scripts/healthcheck.mjs [url]`; the default is this container's liveness probe.
const url = process.argv[2] ?? `http://127.0.0.1:${process.env.PORT || 5000}/api/health/live`;
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
