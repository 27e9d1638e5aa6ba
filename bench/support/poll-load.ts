/**
 * Open-loop HTTP load from its own process, so that the load generator's work is not charged to the server's
 * main thread: GETs `url` at `rate` per second (each request sent on schedule, whether or not earlier ones have
 * answered) until told to stop on stdin or `maxSeconds` pass, then prints `{ latencies, failures }` as JSON on
 * stdout: the latencies (ms) of the 200 answers, and the requests that failed or answered otherwise.
 * Run: node --import tsx bench/support/poll-load.ts <url> <rate> <cookie> <maxSeconds>
 */
import http from 'node:http';

const [url = '', rate = '200', cookie = '', maxSeconds = '60'] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const interval = 1000 / Number(rate);
const latencies: number[] = [];
const failures: string[] = [];
const inflight = new Set<Promise<void>>();
let stopped = false;
process.stdin.on('data', () => {
  stopped = true;
});
setTimeout(() => {
  stopped = true;
}, Number(maxSeconds) * 1000).unref();

/** One request; never rejects: a failure is recorded, so that one bad answer does not end the run. */
function get(): Promise<void> {
  const t = performance.now();
  return new Promise((resolve) => {
    http
      .get(url, { agent, headers: { cookie } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t);
          else failures.push(`HTTP ${res.statusCode}`);
          resolve();
        });
      })
      .on('error', (err) => {
        failures.push(err.message);
        resolve();
      });
  });
}

const start = performance.now();
for (let sent = 0; !stopped; sent++) {
  const wait = start + sent * interval - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const request = get().finally(() => inflight.delete(request));
  inflight.add(request);
}
await Promise.all(inflight);
agent.destroy();
process.stdout.write(JSON.stringify({ latencies, failures }));
