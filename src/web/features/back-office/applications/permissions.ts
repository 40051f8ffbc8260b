import type { Role } from '../../../../domain/roles';

/**
 * SPEC §1: officers and admins edit pending terms, approve, reject and change approved loans; finance
 * sees the lists read-only. The server enforces it; the screens only hide what would be refused.
 */
export function canDecideApplications(role: Role): boolean {
  return role === 'officer' || role === 'admin';
}
