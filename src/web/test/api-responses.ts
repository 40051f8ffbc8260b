import type { z } from 'zod';
import type { MyApplicationDto, MyApplicationResponse } from '../../domain/schemas/application';
import type { repaymentsPage } from '../../domain/schemas/payments';
import type { PublicSettings } from '../../domain/schemas/settings';
import type {
  ApplicationListItem,
  AuditEventDto,
  DashboardSummary,
  ServicingItem,
  staffUserDto,
} from '../../domain/schemas/staff';
import type { MeResponse } from '../../domain/schemas/user';
import type {
  AccountResponse,
  DisbursementDto,
  StaffDisbursementItem,
  WalletResponse,
} from '../../domain/schemas/wallet';
import type { Page } from '../components/lists/use-list';

/** Every error the API answers: `{ error: { code, message, fields, params? } }`. */
export interface ErrorBody {
  error: { code: string; message: string; fields: object; params?: object };
}

/**
 * What each request answers, as the domain's own (zod-inferred) DTO types: a fetch stub's fixture that
 * drifts from the API no longer compiles. (Routes with ids or query strings take any body.)
 */
export interface ApiResponses {
  'GET /api/me': MeResponse;
  'GET /api/settings': PublicSettings;
  'POST /api/auth/login': MeResponse;
  'POST /api/auth/password': MeResponse;
  'POST /api/auth/logout': { ok: true };
  'POST /api/account/avatar': MeResponse;
  'GET /api/account': AccountResponse;
  'GET /api/applications/mine': MyApplicationResponse;
  'POST /api/applications': MyApplicationDto;
  'POST /api/wallet/withdrawals': { disbursement: DisbursementDto; replayed: boolean };
  'POST /api/admin/users': z.infer<typeof staffUserDto>;
  'GET /api/wallet': WalletResponse;
  'GET /api/staff/pending-count': { count: number };
  'GET /api/staff/dashboard': DashboardSummary;
  'GET /api/staff/applications/pending': Page<ApplicationListItem>;
  'GET /api/staff/applications/approved': Page<ApplicationListItem>;
  'GET /api/staff/loans': Page<ServicingItem>;
  'GET /api/staff/disbursements': Page<StaffDisbursementItem>;
  'GET /api/staff/repayments': z.infer<typeof repaymentsPage>;
  'GET /api/admin/users': Page<z.infer<typeof staffUserDto>>;
  'GET /api/admin/audit': Page<AuditEventDto>;
}
