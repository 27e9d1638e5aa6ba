/**
 * Which addresses a webhook may be sent to (adapters/webhook-http.ts): IPv6 spellings that carry an IPv4 address
 * are judged by that address, so none reaches loopback or a private network in disguise.
 */
import { describe, expect, it } from 'vitest';
import { refusedAddress } from '../../src/adapters/webhook-http.js';

describe('webhook target addresses', () => {
  it('refuses IPv4-compatible, -mapped, -translated, NAT64, 6to4 and Teredo spellings of non-public IPv4', () => {
    const refused: [string, string][] = [
      ['::7f00:1', 'loopback address (127.0.0.1)'],
      ['::a00:1', 'private address (10.0.0.1)'],
      ['::ffff:127.0.0.1', 'loopback address (127.0.0.1)'],
      ['::ffff:0:a9fe:a9fe', 'linkLocal address (169.254.169.254)'],
      ['64:ff9b::c0a8:101', 'private address (192.168.1.1)'],
      ['2002:7f00:1::1', 'loopback address (127.0.0.1)'],
      // Teredo: the server 65.54.227.120 is public, the client (stored inverted) is 10.0.0.1.
      ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private address (10.0.0.1)'],
    ];
    for (const [address, why] of refused) expect(refusedAddress(address), address).toBe(`${address} is a ${why}`);
    // The URL parser writes ::127.0.0.1 as ::7f00:1: the spelling the server checks.
    expect(new URL('http://[::127.0.0.1]/').hostname).toBe('[::7f00:1]');
  });

  it('lets the same spellings of public IPv4 addresses through, and still refuses IPv6’s own special ranges', () => {
    for (const address of ['::808:808', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700::1111'])
      expect(refusedAddress(address), address).toBeUndefined();
    expect(refusedAddress('::1')).toBe('::1 is a loopback address');
    expect(refusedAddress('::')).toBe(':: is a unspecified address');
    expect(refusedAddress('fd00::1')).toBe('fd00::1 is a uniqueLocal address');
    expect(refusedAddress('64:ff9b:1::a00:1')).toBe('64:ff9b:1::a00:1 is a rfc6052 address');
  });
});
