import { fromMinorToMajorString } from '../money';

/**
 * QR Ph: the Philippines' interoperable payment QR code (BSP and the Philippine Payments Management Inc.),
 * a profile of EMVCo's "QR Code Specification for Payment Systems: Merchant-Presented Mode". Any QR Ph
 * app (GCash, Maya, every bank's app) scans it and sends the money through InstaPay.
 *
 * The payload is a string of data objects, each `ID` (2 digits) `length` (2 digits) `value`:
 * - `00` payload format indicator, "01"; `01` point of initiation, "11" static (many payments) or "12"
 *   dynamic (one payment, with its amount);
 * - a merchant account information template: `27` for person-to-person transfers (InstaPay P2P, GUID
 *   `com.p2pqrpay`, the receiving institution's BIC in `01`, "99964403" in `02`, the account in `04`) or
 *   `28` for merchant payments (P2M, GUID `ph.ppmi.p2m`, the acquirer's BIC in `01`, the merchant id in
 *   `03`);
 * - `52` merchant category code, `53` currency "608" (PHP), `54` amount ("4727.98"), `58` country "PH",
 *   `59` name (≤ 25), `60` city (≤ 15), `61` postal code;
 * - `62` additional data: `05` reference label, `08` purpose of transaction (≤ 25 each; "***" asks the
 *   payer's app to prompt for it);
 * - `63` the CRC: CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over everything before it,
 *   "6304" included, as 4 upper-case hex digits. Always last.
 *
 * Sources and the example payloads the tests check against: docs/decisions/037-paying-qr-ph-and-receipts.md.
 * Pure: no I/O, no clock.
 */

export interface TlvItem {
  tag: string;
  value: string;
}

/** A payload or an account that is not usable as QR Ph; the message says what to fix. */
export class QrPhError extends Error {
  override name = 'QrPhError';
}

/** Globally unique identifiers of QR Ph's account templates. */
export const QR_PH_P2P_GUID = 'com.p2pqrpay';
export const QR_PH_P2M_GUID = 'ph.ppmi.p2m';
/** The additional data template's identifier in QR Ph merchant (P2M) codes. */
const QR_PH_ADDITIONAL_GUID = 'ph.ppmi.qrph';
/** Field `02` of every InstaPay P2P template seen (GCash, Maya, BDO, EastWest, PayMongo). */
const INSTAPAY_P2P_SERVICE = '99964403';
const PESO = '608';
const PHILIPPINES = 'PH';
/** EMVCo's limit on a whole payload. */
const MAX_PAYLOAD = 512;
/** An EMVCo "alphanumeric special" value: printable ASCII. */
const ANS = /^[\x20-\x7e]+$/;
/** A SWIFT/BIC of a Philippine institution: bank (4 letters), PH, location (2), branch (3, optional). */
const PH_BIC = /^[A-Z]{4}PH[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/**
 * InstaPay's limit for one transfer (₱50,000): an amount above it is not put in the code (the borrower
 * pays in parts or another way), since the app would refuse the whole payment.
 */
export const INSTAPAY_LIMIT_MINOR = 5_000_000;

/** CRC-16/CCITT-FALSE of an ASCII text, as EMVCo writes it: 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new QrPhError('a QR Ph payload is plain ASCII');
    crc ^= code << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Data objects written out: each value 1–99 characters. */
export function encodeTlv(items: readonly TlvItem[]): string {
  return items
    .map(({ tag, value }) => {
      if (!/^\d\d$/.test(tag)) throw new QrPhError(`"${tag}" is not a data object ID`);
      if (value.length < 1 || value.length > 99) {
        throw new QrPhError(`data object ${tag} must hold 1–99 characters, not ${value.length}`);
      }
      return `${tag}${String(value.length).padStart(2, '0')}${value}`;
    })
    .join('');
}

/** Data objects read back; anything that is not a well-formed list of them is refused. */
export function parseTlv(text: string): TlvItem[] {
  const items: TlvItem[] = [];
  let at = 0;
  while (at < text.length) {
    const tag = text.slice(at, at + 2);
    const length = text.slice(at + 2, at + 4);
    if (!/^\d\d$/.test(tag) || !/^\d\d$/.test(length)) {
      throw new QrPhError(`not a data object at character ${at + 1}`);
    }
    const value = text.slice(at + 4, at + 4 + Number(length));
    if (value.length === 0 || value.length !== Number(length)) {
      throw new QrPhError(`data object ${tag} at character ${at + 1} is cut short`);
    }
    items.push({ tag, value });
    at += 4 + value.length;
  }
  return items;
}

const fieldValue = (items: readonly TlvItem[], tag: string) =>
  items.find((i) => i.tag === tag)?.value ?? null;
const isAccountTemplate = (tag: string) => Number(tag) >= 26 && Number(tag) <= 51;

/** Whether the payload's last data object is a CRC that matches everything before it. */
export function crcValid(payload: string): boolean {
  if (!/6304[0-9A-F]{4}$/i.test(payload)) return false;
  try {
    return crc16(payload.slice(0, -4)) === payload.slice(-4).toUpperCase();
  } catch {
    return false;
  }
}

export interface DecodedQrPh {
  crcValid: boolean;
  pointOfInitiation: 'static' | 'dynamic' | null;
  /** The QR Ph account template (27 P2P or 28 P2M) with its fields. */
  account: {
    tag: string;
    guid: string;
    bic: string | null;
    /** P2P: the account credited (`04`). */
    accountNumber: string | null;
    /** P2M: the merchant id the acquirer gave (`03`). */
    merchantId: string | null;
    fields: TlvItem[];
  } | null;
  merchantCategoryCode: string | null;
  currency: string | null;
  /** The amount in centavos (dynamic codes), null when the payer types it. */
  amountMinor: number | null;
  country: string | null;
  merchantName: string | null;
  merchantCity: string | null;
  postalCode: string | null;
  additional: TlvItem[];
  reference: string | null;
  purpose: string | null;
  /** The top-level data objects in order, the CRC included. */
  items: TlvItem[];
}

/** Reads a QR Ph payload into its parts (throws on one that is not a list of data objects). */
export function decodeQrPh(payload: string): DecodedQrPh {
  const items = parseTlv(payload);
  const template = items.find(
    (i) => isAccountTemplate(i.tag) && [QR_PH_P2P_GUID, QR_PH_P2M_GUID].includes(guidOf(i.value) ?? ''),
  );
  const fields = template ? parseTlv(template.value) : [];
  const additional = fieldValue(items, '62');
  const additionalItems = additional ? parseTlv(additional) : [];
  const poi = fieldValue(items, '01');
  const amount = fieldValue(items, '54');
  return {
    crcValid: crcValid(payload) && items.at(-1)?.tag === '63',
    pointOfInitiation: poi === '11' ? 'static' : poi === '12' ? 'dynamic' : null,
    account: template
      ? {
          tag: template.tag,
          guid: fieldValue(fields, '00') ?? '',
          bic: fieldValue(fields, '01'),
          accountNumber: fieldValue(fields, '04'),
          merchantId: fieldValue(fields, '03'),
          fields,
        }
      : null,
    merchantCategoryCode: fieldValue(items, '52'),
    currency: fieldValue(items, '53'),
    amountMinor: amount === null ? null : amountToMinor(amount),
    country: fieldValue(items, '58'),
    merchantName: fieldValue(items, '59'),
    merchantCity: fieldValue(items, '60'),
    postalCode: fieldValue(items, '61'),
    additional: additionalItems,
    reference: fieldValue(additionalItems, '05'),
    purpose: fieldValue(additionalItems, '08'),
    items,
  };
}

function guidOf(templateValue: string): string | null {
  try {
    return fieldValue(parseTlv(templateValue), '00');
  } catch {
    return null;
  }
}

function amountToMinor(text: string): number | null {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** A QR Ph account written field by field (what the payer's app needs to send the money). */
export type QrPhFields =
  | {
      /** InstaPay person-to-person: an account at a bank or e-wallet. */
      type: 'p2p';
      /** The SWIFT/BIC of the bank or e-wallet holding the account, e.g. GXCHPHM2XXX (GCash). */
      bic: string;
      accountNumber: string;
      /** As the e-wallets write it: "+63-917-1234567". */
      mobileNumber?: string | undefined;
      merchantName: string;
      merchantCity: string;
      postalCode?: string | undefined;
      /** Defaults to 6016, as every P2P code seen. */
      merchantCategoryCode?: string | undefined;
    }
  | {
      /** A merchant (P2M) account the lender's acquiring bank or e-wallet opened. */
      type: 'p2m';
      bic: string;
      merchantId: string;
      merchantName: string;
      merchantCity: string;
      postalCode?: string | undefined;
      /** The category the acquirer registered the lender under (e.g. 6012). */
      merchantCategoryCode: string;
    };

/**
 * The lender's QR Ph account: either the text of the static QR Ph code their bank or e-wallet issued (the
 * safest: every field the issuer put in it is kept), or the fields themselves.
 */
export type QrPhAccount = { payload: string } | QrPhFields;

function checkAns(value: string, what: string, max: number) {
  if (value.length < 1 || value.length > max || !ANS.test(value)) {
    throw new QrPhError(
      `${what} must be 1–${max} plain characters (letters without accents, digits, spaces, punctuation)`,
    );
  }
}

function templateFromFields(fields: QrPhFields): TlvItem[] {
  if (!PH_BIC.test(fields.bic)) {
    throw new QrPhError(
      'bic must be the 8 or 11 character SWIFT/BIC of a Philippine institution (e.g. GXCHPHM2XXX)',
    );
  }
  checkAns(fields.merchantName, 'merchantName', 25);
  checkAns(fields.merchantCity, 'merchantCity', 15);
  if (fields.postalCode !== undefined && !/^[0-9A-Za-z]{1,10}$/.test(fields.postalCode)) {
    throw new QrPhError('postalCode must be 1–10 letters or digits');
  }
  const mcc = fields.merchantCategoryCode ?? '6016';
  if (!/^\d{4}$/.test(mcc)) throw new QrPhError('merchantCategoryCode must be 4 digits (ISO 18245)');
  let account: TlvItem;
  const additional: TlvItem[] = [];
  if (fields.type === 'p2p') {
    if (!/^[0-9A-Za-z]{1,34}$/.test(fields.accountNumber)) {
      throw new QrPhError('accountNumber must be 1–34 letters or digits, without spaces or dashes');
    }
    if (fields.mobileNumber !== undefined && !/^\+63-9\d{2}-\d{7}$/.test(fields.mobileNumber)) {
      throw new QrPhError('mobileNumber must be written as +63-9XX-XXXXXXX');
    }
    account = {
      tag: '27',
      value: encodeTlv([
        { tag: '00', value: QR_PH_P2P_GUID },
        { tag: '01', value: fields.bic },
        { tag: '02', value: INSTAPAY_P2P_SERVICE },
        { tag: '04', value: fields.accountNumber },
        ...(fields.mobileNumber ? [{ tag: '05', value: fields.mobileNumber }] : []),
      ]),
    };
  } else {
    checkAns(fields.merchantId, 'merchantId', 32);
    account = {
      tag: '28',
      value: encodeTlv([
        { tag: '00', value: QR_PH_P2M_GUID },
        { tag: '01', value: fields.bic },
        { tag: '03', value: fields.merchantId },
      ]),
    };
    additional.push({ tag: '00', value: QR_PH_ADDITIONAL_GUID });
  }
  return [
    { tag: '00', value: '01' },
    { tag: '01', value: '11' },
    account,
    { tag: '52', value: mcc },
    { tag: '53', value: PESO },
    { tag: '58', value: PHILIPPINES },
    { tag: '59', value: fields.merchantName },
    { tag: '60', value: fields.merchantCity },
    ...(fields.postalCode ? [{ tag: '61', value: fields.postalCode }] : []),
    ...(additional.length > 0 ? [{ tag: '62', value: encodeTlv(additional) }] : []),
  ];
}

function templateFromPayload(payload: string): TlvItem[] {
  if (!ANS.test(payload)) throw new QrPhError('payload must be the text of the QR code, plain ASCII');
  let decoded: DecodedQrPh;
  try {
    decoded = decodeQrPh(payload);
  } catch (error) {
    throw new QrPhError(`payload is not a QR code's text: ${(error as Error).message}`);
  }
  if (!decoded.crcValid) {
    throw new QrPhError('payload does not end in a matching CRC (63): copy the whole text of the code');
  }
  if (fieldValue(decoded.items, '00') !== '01')
    throw new QrPhError('payload is not an EMV payment code (00 must be 01)');
  if (!decoded.account) {
    throw new QrPhError(
      `payload is not a QR Ph code: no account template names ${QR_PH_P2P_GUID} or ${QR_PH_P2M_GUID}`,
    );
  }
  if (
    decoded.pointOfInitiation === 'dynamic' ||
    decoded.amountMinor !== null ||
    fieldValue(decoded.items, '54')
  ) {
    throw new QrPhError('payload is a one-time code with an amount: give the static code (no amount)');
  }
  if (decoded.currency !== PESO || decoded.country !== PHILIPPINES) {
    throw new QrPhError('payload must be a code for pesos (53 = 608) in the Philippines (58 = PH)');
  }
  if (!decoded.merchantName || !decoded.merchantCity) {
    throw new QrPhError('payload has no name (59) or city (60)');
  }
  return decoded.items.filter((i) => i.tag !== '63');
}

/** The static code's data objects, checked: what every payment code of this account starts from. */
export function qrPhTemplate(account: QrPhAccount): TlvItem[] {
  const items = 'payload' in account ? templateFromPayload(account.payload) : templateFromFields(account);
  // The longest reference and amount a code may add must still fit (checked once, at start).
  try {
    build(items, { amountMinor: 99_999_999_999, reference: 'X'.repeat(MAX_REFERENCE) });
  } catch (error) {
    throw new QrPhError(`leaves no room for an amount and the loan number: ${(error as Error).message}`);
  }
  return items;
}

/** The longest reference (the loan number) a code carries: EMVCo's limit for a reference label. */
export const MAX_REFERENCE = 25;

/** "***" asks the payer's app to prompt for the value: ours fills it in instead. */
const settable = (value: string | null) => value === null || value === '***';

function withReference(additional: string | null, reference: string): string {
  const items = additional ? parseTlv(additional) : [];
  const set = (tag: string) => {
    const existing = items.find((i) => i.tag === tag);
    if (!existing) items.push({ tag, value: reference });
    else if (settable(existing.value)) existing.value = reference;
  };
  // The reference label is EMVCo's field for it; Maya's own codes carry the payer's note as the purpose.
  set('05');
  set('08');
  items.sort((a, b) => Number(a.tag) - Number(b.tag));
  return encodeTlv(items);
}

function build(
  template: readonly TlvItem[],
  input: { amountMinor: number | null; reference: string | null },
) {
  const items = template.filter((i) => !['01', '54', '63'].includes(i.tag)).map((i) => ({ ...i }));
  items.push({ tag: '01', value: input.amountMinor === null ? '11' : '12' });
  if (input.amountMinor !== null) {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor < 1) {
      throw new QrPhError('the amount must be a positive number of centavos');
    }
    items.push({ tag: '54', value: fromMinorToMajorString(input.amountMinor) });
  }
  if (input.reference !== null) {
    checkAns(input.reference, 'the reference', MAX_REFERENCE);
    const additional = items.find((i) => i.tag === '62');
    const value = withReference(additional?.value ?? null, input.reference);
    if (additional) additional.value = value;
    else items.push({ tag: '62', value });
  }
  items.sort((a, b) => Number(a.tag) - Number(b.tag));
  const body = `${encodeTlv(items)}6304`;
  const payload = body + crc16(body);
  if (payload.length > MAX_PAYLOAD)
    throw new QrPhError(`the code would be longer than ${MAX_PAYLOAD} characters`);
  return payload;
}

/**
 * A QR Ph payload for this account: dynamic ("12") with the amount when there is one, static ("11")
 * otherwise, carrying the reference (the loan number) as the reference label and the purpose.
 */
export function buildQrPhPayload(
  account: QrPhAccount,
  input: { amountMinor?: number | null; reference?: string | null } = {},
): string {
  return build(qrPhTemplate(account), {
    amountMinor: input.amountMinor ?? null,
    reference: input.reference ?? null,
  });
}

/**
 * The code a borrower scans to pay: the amount due now filled in when there is one within the transfer
 * limit (otherwise the payer types the amount), and always the loan number as the reference.
 */
export function paymentQr(
  account: QrPhAccount,
  input: { reference: string; amountDueMinor: number; maxAmountMinor?: number },
): { payload: string; amountMinor: number | null } {
  const max = input.maxAmountMinor ?? INSTAPAY_LIMIT_MINOR;
  const amountMinor = input.amountDueMinor > 0 && input.amountDueMinor <= max ? input.amountDueMinor : null;
  return { payload: buildQrPhPayload(account, { amountMinor, reference: input.reference }), amountMinor };
}
