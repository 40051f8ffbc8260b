import { describe, expect, it } from 'vitest';
import { clientBucket } from './rate-limits';

describe('clientBucket', () => {
  it('counts IPv4 (also IPv4-mapped) by address and IPv6 by its /64', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('2001:0db8:0000:0000:ffff:0:0:2')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientBucket('1:2:3::192.0.2.1')).toBe('1:2:3:0::/64');
  });
});
