import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a webhook target is refused (an address that is not public), or undefined when it may be called. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.parse(address);
  const inside = ip instanceof ipaddr.IPv6 ? embeddedIPv4(ip) : [];
  // An IPv6 spelling of IPv4 addresses reaches them: it is judged by them (::7f00:1 is 127.0.0.1).
  for (const v4 of inside) {
    const range = v4.range();
    if (range !== 'unicast') return `${address} is a ${range} address (${v4})`;
  }
  if (inside.length > 0) return undefined;
  const range = ip.range();
  // Only global unicast: loopback, private, link-local (169.254.169.254, the cloud metadata address), unique local,
  // carrier-grade NAT, multicast, reserved and the translation ranges with no IPv4 address at a fixed place (the
  // local-use NAT64 prefix 64:ff9b:1::/48) are refused.
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}

/**
 * The IPv4 addresses an IPv6 address carries and leads to: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), the well-known NAT64 prefix (64:ff9b::a.b.c.d), 6to4
 * (2002:AABB:CCDD::) and Teredo (its server, and its client's address stored inverted).
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = ip.parts as [number, number, number, number, number, number, number, number];
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([(hi >> 8) & 0xff, hi & 0xff, (lo >> 8) & 0xff, lo & 0xff]);
  const range = ip.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [v4(p6, p7)];
  // :: and ::1 are IPv6's own unspecified and loopback addresses (their ranges), not IPv4-compatible ones.
  if (range === 'unicast' && !(p0 | p1 | p2 | p3 | p4 | p5)) return [v4(p6, p7)];
  if (p0 === 0x64 && p1 === 0xff9b && !(p2 | p3 | p4 | p5)) return [v4(p6, p7)];
  if (range === '6to4') return [v4(p1, p2)];
  if (range === 'teredo') return [v4(p2, p3), v4(~p6, ~p7)];
  return [];
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
