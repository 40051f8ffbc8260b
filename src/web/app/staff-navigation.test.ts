import { describe, expect, it } from 'vitest';
import { can } from '../../domain/permissions';
import { staffRoles } from '../../domain/roles';
import { staffNavItems, staffNavItemsFor } from './staff-navigation';

describe('the staff sidebar', () => {
  it('shows each role exactly the pages the domain permission table allows', () => {
    const paths = (role: (typeof staffRoles)[number]) => staffNavItemsFor(role).map((item) => item.to);
    expect(paths('officer')).not.toContain('/admin/users');
    expect(paths('finance')).not.toContain('/admin/audit');
    expect(paths('officer')).toContain('/admin/overdue');
    expect(paths('officer')).not.toContain('/admin/unapplied');
    expect(paths('finance')).toContain('/admin/unapplied');
    expect(paths('admin')).toEqual(staffNavItems.map((item) => item.to));
    for (const role of staffRoles)
      for (const item of staffNavItems)
        expect(paths(role).includes(item.to)).toBe(can(role, item.permission));
  });

  it('shows a borrower nothing', () => {
    expect(staffNavItemsFor('borrower')).toEqual([]);
  });
});
