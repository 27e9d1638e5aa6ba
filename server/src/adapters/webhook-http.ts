import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a webhook target is refused (an address that is not public), or undefined when it may be called. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let ip = ipaddr.parse(address);
  // ::ffff:127.0.0.1 is 127.0.0.1.
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  const range = ip.range();
  // Only global unicast: loopback, private, link-local (169.254.169.254, the cloud metadata address), unique local,
  // carrier-grade NAT, multicast, reserved and the IPv6 translation ranges that can embed any of them are refused.
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}

export class WebhookTargetError extends Error {}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Every address the URL's host resolves to (or the literal address), each checked; throws WebhookTargetError. */
export async function checkWebhookTarget(url: URL): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetError('not an http(s) URL');
  const host = hostOf(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new WebhookTargetError(`${host} could not be resolved`);
    }
  }
  for (const address of addresses) {
    const refused = refusedAddress(address);
    if (refused) throw new WebhookTargetError(refused);
  }
}

/**
 * Resolves like dns.lookup, but refuses the connection when any address is not public: the check happens on the
 * addresses the connection then uses, so a name that changed since the submit (DNS rebinding) is caught here.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as dns.LookupAddress[];
    for (const a of list) {
      const refused = refusedAddress(a.address);
      if (refused) return callback(new WebhookTargetError(refused), '', 4);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    const first = list[0];
    if (!first) return callback(new WebhookTargetError(`${hostname} has no address`), '', 4);
    callback(null, first.address, first.family);
  });
};

export interface WebhookResponse {
  status: number;
}

/**
 * POSTs `body` to `url` once: no redirects followed (a 3xx is an answer like any other), `timeoutMs` for the whole
 * attempt, and, unless `allowPrivate`, only to public addresses (checked on the addresses actually connected to).
 */
export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<WebhookResponse> {
  if (!opts.allowPrivate && ipaddr.isValid(hostOf(url))) await checkWebhookTarget(url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(opts.timeoutMs),
        ...(!opts.allowPrivate && { lookup: guardedLookup }),
      },
      (res) => {
        // The answer's body is not needed: read and dropped, so that the socket is released.
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
