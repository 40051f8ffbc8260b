import { describe, expect, it } from 'vitest';
import { metricsGate, parseNetwork } from './access';

describe('parseNetwork', () => {
  it('reads addresses and CIDR networks of both families', () => {
    expect(parseNetwork('10.0.0.0/8')).toEqual({ address: '10.0.0.0', family: 'ipv4', prefix: 8 });
    expect(parseNetwork(' 127.0.0.1 ')).toEqual({ address: '127.0.0.1', family: 'ipv4', prefix: 32 });
    expect(parseNetwork('fd00::/8')).toEqual({ address: 'fd00::', family: 'ipv6', prefix: 8 });
    expect(parseNetwork('::1')).toEqual({ address: '::1', family: 'ipv6', prefix: 128 });
  });

  it('refuses what is not a network', () => {
    for (const bad of [
      '',
      'localhost',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      '10.0.0.0/-1',
      '10.0.0.0/x',
    ])
      expect(parseNetwork(bad), bad).toBeNull();
  });
});

describe('metricsGate', () => {
  const token = 'a-metrics-token-of-at-least-32-chars!';

  it('lets in addresses of the allowed networks, IPv4 also as IPv4-mapped IPv6', () => {
    const allowed = metricsGate({ allow: ['10.1.0.0/16', '192.168.5.7', 'fd00::/8'], token: undefined });
    expect(allowed('10.1.200.3', undefined)).toBe(true);
    expect(allowed('::ffff:10.1.0.9', undefined)).toBe(true);
    expect(allowed('192.168.5.7', undefined)).toBe(true);
    expect(allowed('fd12::1', undefined)).toBe(true);
    expect(allowed('10.2.0.1', undefined)).toBe(false);
    expect(allowed('192.168.5.8', undefined)).toBe(false);
    expect(allowed('fe80::1', undefined)).toBe(false);
    expect(allowed('not an address', undefined)).toBe(false);
  });

  it('lets in the bearer of the token from anywhere, and nobody else', () => {
    const allowed = metricsGate({ allow: [], token });
    expect(allowed('203.0.113.9', `Bearer ${token}`)).toBe(true);
    expect(allowed('203.0.113.9', `bearer ${token}`)).toBe(true);
    expect(allowed('203.0.113.9', `Bearer ${token}x`)).toBe(false);
    expect(allowed('203.0.113.9', token)).toBe(false);
    expect(allowed('203.0.113.9', undefined)).toBe(false);
    expect(allowed('127.0.0.1', 'Bearer ')).toBe(false);
  });

  it('lets nobody in when neither is configured', () => {
    const allowed = metricsGate({ allow: [], token: undefined });
    expect(allowed('127.0.0.1', 'Bearer anything')).toBe(false);
  });
});
