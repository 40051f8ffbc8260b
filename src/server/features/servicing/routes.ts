import { z } from 'zod';
import type { Permission } from '../../../domain/permissions';
import { staffAmountInput } from '../../../domain/schemas/products';
import {
  applicationProfile,
  bankDetailsSchema,
  borrowerLanguageChangeSchema,
  creditScoreChangeSchema,
  holdSchema,
  listQuerySchema,
  messageSchema,
  passwordResetCodeSentResponse,
  reasonSchema,
  resetPasswordSchema,
  servicingPage,
} from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import { resetPasswordByCode } from '../../auth/reset-password';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { errorResponses } from '../../lib/openapi';
import { nameSearchScope, queueReads } from '../../lib/paging';
import type { App } from '../../lib/types';
import { getApplicationProfile } from '../../loans/get-application-profile';
import { updateLoanTerms } from '../../loans/update-loan-terms';
import { changeBankDetails } from './change-bank-details';
import { changeBorrowerLanguage } from './change-borrower-language';
import { changeCreditScore } from './change-credit-score';
import { changeLoanStatus } from './change-loan-status';
import { listLoans } from './list-loans';
import { messageBorrower } from './message-borrower';

const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

export function servicingRoutes(app: App, deps: AppDeps) {
  const amountChangeSchema = z.object(
    {
      // Which amounts are allowed is the loan's own product version's staff range: checked by the use case.
      amount: staffAmountInput,
      reason: reasonSchema,
      /** The borrower asked for this reduction: applied at once, else proposed to the borrower. */
      borrowerRequested: z.boolean().optional(),
    },
    { error: 'REASON_REQUIRED' },
  );
  app.get(
    '/staff/loans',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['servicing'],
        summary: 'Loan Servicing list: running loans with their available balance',
        querystring: listQuerySchema,
        response: { 200: servicingPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(
        answerKey(request),
        queueReads(['applications', 'disbursements', 'terms_changes'], request.query),
        () => listLoans(deps, request.query),
        nameSearchScope(request.query),
      ),
  );

  const action = <S extends z.ZodType>(
    path: string,
    summary: string,
    permission: Permission,
    body: S,
    run: (id: string, input: z.infer<S>, ctx: ReturnType<typeof staffContext>) => Promise<unknown>,
    inputErrorCode: 'REASON_REQUIRED' | 'LOAN_UPDATE_INVALID' | 'CREDIT_SCORE_INVALID' = 'REASON_REQUIRED',
  ) =>
    app.post(
      `/staff/loans/:id/${path}`,
      {
        preValidation: requirePermission(permission),
        config: { inputErrorCode },
        schema: {
          tags: ['servicing'],
          summary,
          params: idParams,
          body,
          response: { 200: applicationProfile, ...errorResponses },
        },
      },
      async (request) => {
        await run(request.params.id, request.body as z.infer<S>, staffContext(request));
        return getApplicationProfile(deps, request.params.id);
      },
    );

  action(
    'status',
    'Put on hold (with a message to the borrower) or release',
    'loan.changeStatus',
    holdSchema,
    (id, input, ctx) => changeLoanStatus(deps, ctx, id, input),
  );
  action(
    'bank-details',
    'Change the payout bank or wallet account',
    'loan.changeBankDetails',
    bankDetailsSchema,
    (id, input, ctx) => changeBankDetails(deps, ctx, id, input),
  );
  action(
    'credit-score',
    'Change the credit score',
    'loan.changeCreditScore',
    creditScoreChangeSchema,
    (id, input, ctx) => changeCreditScore(deps, ctx, id, input),
    'CREDIT_SCORE_INVALID',
  );
  action(
    'language',
    'Set the language the borrower asked to be sent everything in (SMS codes, reminders, complaint replies)',
    'borrower.changeLanguage',
    borrowerLanguageChangeSchema,
    (id, input, ctx) => changeBorrowerLanguage(deps, ctx, id, input),
  );
  action('message', 'Send the borrower a message', 'loan.messageBorrower', messageSchema, (id, input, ctx) =>
    messageBorrower(deps, ctx, id, input),
  );
  action(
    'amount',
    'Change the approved amount (never below what is withdrawn): a reduction the borrower asked for applies, anything else is proposed to the borrower',
    'loan.changeAmount',
    amountChangeSchema,
    async (id, input, ctx) => {
      const loan = await getApplicationProfile(deps, id);
      await updateLoanTerms(deps, ctx, 'approved', id, {
        amount: input.amount,
        termMonths: loan.termMonths,
        reason: input.reason,
        borrowerRequested: input.borrowerRequested,
      });
    },
    'LOAN_UPDATE_INVALID',
  );

  app.post(
    '/staff/loans/:id/reset-password',
    {
      preValidation: requirePermission('users.manage'),
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['servicing'],
        summary:
          "Reset the borrower's password: the old one stops working, sessions end, and a code goes by SMS " +
          'to the borrower\'s phone to choose a new one through "Forgot password?"',
        params: idParams,
        body: resetPasswordSchema,
        response: { 200: passwordResetCodeSentResponse, ...errorResponses },
      },
    },
    async (request) => {
      const loan = await getApplicationProfile(deps, request.params.id);
      await resetPasswordByCode(deps, staffContext(request), loan.borrowerId, {
        reason: request.body.reason,
        loanId: loan.id,
        clientIp: request.ip,
      });
      return { codeSent: true as const };
    },
  );
}
