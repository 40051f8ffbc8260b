import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { recordAudit } from '../../audit/audit';
import type { SessionContext } from '../../auth/sessions';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';

/** Loaded on first use: a tenth of a second of start-up for a route few requests take (issue #35). */
const webauthn = () => import('@simplewebauthn/server');

/**
 * Passkeys (WebAuthn) as a second factor for staff, with @simplewebauthn/server. The relying party is
 * WEBAUTHN_RP_ID / WEBAUTHN_ORIGIN, else PUBLIC_URL, else the host the browser asked for. Each challenge is
 * kept on the session that asked for it and used once.
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

export function relyingParty(deps: AppDeps, request: FastifyRequest): RelyingParty {
  const { webauthnRpId, webauthnOrigin } = deps.config.staffSignIn;
  const origin = webauthnOrigin ?? deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const url = new URL(origin);
  return { id: webauthnRpId ?? url.hostname, origin: url.origin };
}

async function keepChallenge(deps: AppDeps, session: SessionContext, challenge: string | null) {
  await deps.db
    .updateTable('sessions')
    .set({ webauthn_challenge: challenge })
    .where('id_hash', '=', session.idHash)
    .execute();
}

/** The challenge this session was given, cleared so it cannot be answered twice. */
async function takeChallenge(deps: AppDeps, session: SessionContext): Promise<string> {
  const row = await deps.db
    .selectFrom('sessions')
    .select('webauthn_challenge')
    .where('id_hash', '=', session.idHash)
    .executeTakeFirst();
  await keepChallenge(deps, session, null);
  if (!row?.webauthn_challenge) throw new AppError('PASSKEY_INVALID');
  return row.webauthn_challenge;
}

const transportsOf = (text: string) => (text ? text.split(',') : undefined);

export async function passkeyRegistrationOptions(
  deps: AppDeps,
  session: SessionContext,
  rp: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await deps.db
    .selectFrom('user_passkeys')
    .select(['id', 'transports'])
    .where('user_id', '=', session.user.id)
    .execute();
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: 'Hiram',
    rpID: rp.id,
    userName: session.user.username ?? session.user.phone ?? 'staff',
    userID: new TextEncoder().encode(session.user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await keepChallenge(deps, session, options.challenge);
  return options;
}

export async function registerPasskey(
  deps: AppDeps,
  ctx: StaffContext,
  session: SessionContext,
  rp: RelyingParty,
  input: { name: string; response: unknown },
): Promise<void> {
  const expectedChallenge = await takeChallenge(deps, session);
  const { verifyRegistrationResponse } = await webauthn();
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    throw new AppError('PASSKEY_INVALID');
  }
  if (!verified.verified || !verified.registrationInfo) throw new AppError('PASSKEY_INVALID');
  const { credential } = verified.registrationInfo;
  await deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('user_passkeys')
      .values({
        id: credential.id,
        user_id: ctx.staff.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(','),
        name: input.name,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new AppError('PASSKEY_INVALID');
    await recordAudit(trx, ctx.actor, {
      action: 'user.passkey_added',
      targetType: 'user',
      targetId: ctx.staff.id,
      after: { passkey: input.name },
    });
  });
}

export async function removePasskey(deps: AppDeps, ctx: StaffContext, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('user_passkeys')
      .where('id', '=', id)
      .where('user_id', '=', ctx.staff.id)
      .returning('name')
      .executeTakeFirst();
    if (!removed) throw new AppError('NOT_FOUND');
    await recordAudit(trx, ctx.actor, {
      action: 'user.passkey_removed',
      targetType: 'user',
      targetId: ctx.staff.id,
      before: { passkey: removed.name },
    });
  });
}

export async function passkeyAuthenticationOptions(
  deps: AppDeps,
  pending: SessionContext,
  rp: RelyingParty,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const passkeys = await deps.db
    .selectFrom('user_passkeys')
    .select(['id', 'transports'])
    .where('user_id', '=', pending.user.id)
    .execute();
  if (passkeys.length === 0) throw new AppError('PASSKEY_INVALID');
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: transportsOf(p.transports) as never })),
    userVerification: 'preferred',
  });
  await keepChallenge(deps, pending, options.challenge);
  return options;
}

/** True when the answer is a valid signature of this session's challenge by one of the user's passkeys. */
export async function verifyPasskey(
  deps: AppDeps,
  pending: SessionContext,
  rp: RelyingParty,
  response: unknown,
): Promise<boolean> {
  const expectedChallenge = await takeChallenge(deps, pending);
  const answer = response as AuthenticationResponseJSON;
  const passkey = await deps.db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('id', '=', answer.id)
    .where('user_id', '=', pending.user.id)
    .executeTakeFirst();
  if (!passkey) return false;
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const result = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: passkey.counter,
        transports: transportsOf(passkey.transports) as never,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    await deps.db
      .updateTable('user_passkeys')
      .set({ counter: result.authenticationInfo.newCounter, last_used_at: sql<Date>`now()` })
      .where('id', '=', passkey.id)
      .execute();
    return true;
  } catch {
    return false;
  }
}
