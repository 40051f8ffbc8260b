import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildQrPhPayload,
  crc16,
  crcValid,
  decodeQrPh,
  encodeTlv,
  INSTAPAY_LIMIT_MINOR,
  MAX_REFERENCE,
  parseTlv,
  paymentQr,
  QrPhError,
  type QrPhFields,
  qrPhTemplate,
} from './qr-ph';

/**
 * QR Ph payloads as real apps and providers made them (sources in docs/decisions/037): each ends in the CRC
 * its maker computed, so a CRC that agrees with all of them is EMVCo's.
 */
const realPayloads = {
  // PayMongo's developer reference, "QR Transfer Resource": a dynamic InstaPay P2P code with every field.
  paymongoP2p:
    '00020101021227770012com.p2pqrpay0111PAEYPHM2XXX02089996440304129858893861530514+63-99137298615204601653036085406123.455802PH5913ENG-19818-ged6006Manila62980012com.p2pqrpay0103***0214+63-99137298620303***0408LOYALTY10506test120605cust10708123456780803***6304ED03',
  // Maya person-to-person codes: static, then with amounts, then with a note as the purpose.
  mayaStatic:
    '00020101021127780012com.p2pqrpay0111PAPHPHM1XXX02089996440304126390604987410515+63-906-04987415204601653036085802PH5918Bernabe Jr Agustin6010Valenzuela63041475',
  maya50000:
    '00020101021227780012com.p2pqrpay0111PAPHPHM1XXX02089996440304126390604987410515+63-906-0498741520460165303608540850000.005802PH5918Bernabe Jr Agustin6010Valenzuela63045349',
  maya100_81:
    '00020101021227780012com.p2pqrpay0111PAPHPHM1XXX02089996440304126390604987410515+63-906-04987415204601653036085406100.815802PH5918Bernabe Jr Agustin6010Valenzuela6304C5AB',
  mayaWithNote:
    '00020101021227780012com.p2pqrpay0111PAPHPHM1XXX02089996440304126390604987410515+63-906-049874152046016530360854071000.005802PH5918Bernabe Jr Agustin6010Valenzuela62080804Meme6304972E',
  // A GCash personal code (its own field 03 and an alphanumeric account), a BDO and an EastWest one.
  gcashStatic:
    '00020101021127830012com.p2pqrpay0111GXCHPHM2XXX02089996440303152170200000006560417DWQM4TK3JDNWIWRDY5204601653036085802PH5908Setnayan6011Holy Spirit6104123463045E2D',
  bdoStatic:
    '00020101021127590012com.p2pqrpay0111BNORPHMMXXX02089996440304120065402839535204601653036085802PH5914Joint Casasola6011Makati City63048FA5',
  eastwestStatic:
    '00020101021127770012com.p2pqrpay0111EAWRPHM2XXX02089996440304125000134020460514+63-91788179125204601653036085802PH5914Komoo Testingg6006AMADEO63041E6F',
  // Merchant (P2M) codes: a shop's static GCash QR Ph, and a Maya merchant code with an amount.
  gcashMerchant:
    '00020101021128620011ph.ppmi.p2m0111GXCHPHM2XXX032121702000005469871609905030005204581453036085802PH5917S and R MBTC 91826006Taguig6104163062650012ph.ppmi.qrph0308SRSU002005212170500000669901340940708GEN0035163049EE7',
  mayaMerchantAmount:
    '00020101021228500011ph.ppmi.p2m0111PAPHPHM1XXX0309102140529050331052047299530360854041.005802PH5903Rui6006Manila62440014com.paymaya.qr052228oYUr47CjKVCKh57wfb3s6304C116',
};

const maya: QrPhFields = {
  type: 'p2p',
  bic: 'PAPHPHM1XXX',
  accountNumber: '639060498741',
  mobileNumber: '+63-906-0498741',
  merchantName: 'Bernabe Jr Agustin',
  merchantCity: 'Valenzuela',
};

describe('the CRC (CRC-16/CCITT-FALSE)', () => {
  it('gives the catalogue check value for "123456789" and the empty text', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
    expect(crc16('A')).toBe('B915');
  });

  it.each(Object.entries(realPayloads))('agrees with the CRC of a real code: %s', (_name, payload) => {
    expect(crc16(payload.slice(0, -4))).toBe(payload.slice(-4));
    expect(crcValid(payload)).toBe(true);
  });

  it('finds one changed character, and a payload without a CRC', () => {
    const payload = realPayloads.bdoStatic;
    expect(crcValid(payload.replace('Joint', 'Joins'))).toBe(false);
    expect(crcValid(payload.slice(0, -8))).toBe(false);
    expect(crcValid(`${payload.slice(0, -4)}ZZZZ`)).toBe(false);
  });
});

describe('data objects (ID, length, value)', () => {
  it('reads a real code into its objects and writes it back unchanged', () => {
    for (const payload of Object.values(realPayloads)) expect(encodeTlv(parseTlv(payload))).toBe(payload);
  });

  it('refuses a cut-short or malformed list, and values of 0 or 100 characters', () => {
    expect(() => parseTlv('000201010')).toThrow(QrPhError);
    expect(() => parseTlv('0002010105ab')).toThrow(/cut short/);
    expect(() => parseTlv('AB0201')).toThrow(/not a data object/);
    expect(() => parseTlv('0000')).toThrow(QrPhError);
    expect(() => encodeTlv([{ tag: '59', value: '' }])).toThrow(/1–99/);
    expect(() => encodeTlv([{ tag: '59', value: 'x'.repeat(100) }])).toThrow(/1–99/);
    expect(() => encodeTlv([{ tag: '5', value: 'x' }])).toThrow(QrPhError);
  });
});

describe('decoding', () => {
  it('reads the account, amount and reference of a real dynamic P2P code', () => {
    const decoded = decodeQrPh(realPayloads.paymongoP2p);
    expect(decoded).toMatchObject({
      crcValid: true,
      pointOfInitiation: 'dynamic',
      account: { tag: '27', guid: 'com.p2pqrpay', bic: 'PAEYPHM2XXX', accountNumber: '985889386153' },
      merchantCategoryCode: '6016',
      currency: '608',
      amountMinor: 12_345,
      country: 'PH',
      merchantName: 'ENG-19818-ged',
      merchantCity: 'Manila',
      reference: 'test12',
      purpose: '***',
    });
  });

  it('reads a merchant code: the merchant id, no amount', () => {
    expect(decodeQrPh(realPayloads.gcashMerchant)).toMatchObject({
      pointOfInitiation: 'static',
      account: { tag: '28', guid: 'ph.ppmi.p2m', bic: 'GXCHPHM2XXX', merchantId: '217020000054698716099' },
      amountMinor: null,
      postalCode: '1630',
    });
  });
});

describe('building a code from the fields', () => {
  it('makes exactly the codes Maya makes for the same account: static, and with an amount', () => {
    expect(buildQrPhPayload(maya)).toBe(realPayloads.mayaStatic);
    expect(buildQrPhPayload(maya, { amountMinor: 5_000_000 })).toBe(realPayloads.maya50000);
    expect(buildQrPhPayload(maya, { amountMinor: 10_081 })).toBe(realPayloads.maya100_81);
  });

  it('makes exactly the code BDO makes for the same account', () => {
    expect(
      buildQrPhPayload({
        type: 'p2p',
        bic: 'BNORPHMMXXX',
        accountNumber: '006540283953',
        merchantName: 'Joint Casasola',
        merchantCity: 'Makati City',
      }),
    ).toBe(realPayloads.bdoStatic);
  });

  it('puts the loan number in the reference label and the purpose, and the amount to the centavo', () => {
    const payload = buildQrPhPayload(maya, { amountMinor: 472_798, reference: 'HL-26-000002' });
    expect(payload).toBe(
      '00020101021227780012com.p2pqrpay0111PAPHPHM1XXX02089996440304126390604987410515+63-906-0498741' +
        '52046016530360854074727.985802PH5918Bernabe Jr Agustin6010Valenzuela' +
        '62320512HL-26-0000020812HL-26-000002' +
        `6304${crc16(payload.slice(0, -4))}`,
    );
    expect(decodeQrPh(payload)).toMatchObject({ amountMinor: 472_798, reference: 'HL-26-000002' });
  });

  it('writes a merchant (P2M) template with its merchant id and QR Ph additional data', () => {
    const payload = buildQrPhPayload(
      {
        type: 'p2m',
        bic: 'UBPHPHMMXXX',
        merchantId: 'M0001234',
        merchantName: 'Sample Lending Corp',
        merchantCity: 'Makati',
        merchantCategoryCode: '6012',
      },
      { reference: 'HL-26-000002' },
    );
    const decoded = decodeQrPh(payload);
    expect(decoded).toMatchObject({
      crcValid: true,
      pointOfInitiation: 'static',
      account: { tag: '28', guid: 'ph.ppmi.p2m', bic: 'UBPHPHMMXXX', merchantId: 'M0001234' },
      merchantCategoryCode: '6012',
      reference: 'HL-26-000002',
    });
    expect(decoded.additional[0]).toEqual({ tag: '00', value: 'ph.ppmi.qrph' });
  });

  it('refuses what no app could pay to, saying which field', () => {
    expect(() => qrPhTemplate({ ...maya, bic: 'GXCHUSM2XXX' })).toThrow(/bic must be/);
    expect(() => qrPhTemplate({ ...maya, accountNumber: '0917 123 4567' })).toThrow(/accountNumber/);
    expect(() => qrPhTemplate({ ...maya, merchantName: 'A'.repeat(26) })).toThrow(/merchantName/);
    expect(() => qrPhTemplate({ ...maya, merchantName: 'Peñafrancia Lending' })).toThrow(/merchantName/);
    expect(() => qrPhTemplate({ ...maya, merchantCity: 'Las Piñas' })).toThrow(/merchantCity/);
    expect(() => qrPhTemplate({ ...maya, mobileNumber: '09171234567' })).toThrow(/mobileNumber/);
    expect(() => qrPhTemplate({ ...maya, merchantCategoryCode: '60' })).toThrow(/merchantCategoryCode/);
    expect(() => buildQrPhPayload(maya, { amountMinor: 0 })).toThrow(/amount/);
    expect(() => buildQrPhPayload(maya, { reference: 'x'.repeat(MAX_REFERENCE + 1) })).toThrow(/reference/);
  });
});

describe('building a code from the static code the lender was given', () => {
  it('keeps every field the issuer put in it, adding the amount and the loan number', () => {
    const payload = buildQrPhPayload(
      { payload: realPayloads.gcashStatic },
      { amountMinor: 472_798, reference: 'HL-26-000002' },
    );
    const before = decodeQrPh(realPayloads.gcashStatic);
    const after = decodeQrPh(payload);
    expect(after.crcValid).toBe(true);
    expect(after.pointOfInitiation).toBe('dynamic');
    expect(after.account).toEqual(before.account);
    expect(after.amountMinor).toBe(472_798);
    expect(after.reference).toBe('HL-26-000002');
    expect(after.items.filter((i) => !['01', '54', '62', '63'].includes(i.tag))).toEqual(
      before.items.filter((i) => !['01', '63'].includes(i.tag)),
    );
    // Without an amount it stays a static code, the issuer's own but for the reference.
    const unchanged = buildQrPhPayload({ payload: realPayloads.gcashStatic });
    expect(unchanged).toBe(realPayloads.gcashStatic);
  });

  it("keeps a merchant code's own reference label and puts the loan number in the purpose", () => {
    const after = decodeQrPh(
      buildQrPhPayload({ payload: realPayloads.gcashMerchant }, { reference: 'HL-26-000002' }),
    );
    expect(after.reference).toBe('217050000066990134094');
    expect(after.purpose).toBe('HL-26-000002');
  });

  it('fills in fields the code asks the payer for ("***")', () => {
    // PayMongo's code made static, its additional data cut to the reference label and a purpose to ask for.
    const template = parseTlv(realPayloads.paymongoP2p)
      .filter((i) => !['54', '63'].includes(i.tag))
      .map((i) => (i.tag === '01' ? { tag: '01', value: '11' } : i))
      .map((i) => (i.tag === '62' ? { tag: '62', value: '0012com.p2pqrpay0506test120803***' } : i));
    const body = `${encodeTlv(template)}6304`;
    const staticCode = body + crc16(body);
    const after = decodeQrPh(buildQrPhPayload({ payload: staticCode }, { reference: 'HL-26-000002' }));
    // Its own reference label stays; the purpose it would prompt for is filled in.
    expect(after.reference).toBe('test12');
    expect(after.purpose).toBe('HL-26-000002');
  });

  it('refuses a code whose additional data leaves no room for the loan number', () => {
    const full = parseTlv(realPayloads.paymongoP2p).filter((i) => !['54', '63'].includes(i.tag));
    full[1] = { tag: '01', value: '11' };
    const body = `${encodeTlv(full)}6304`;
    expect(() => qrPhTemplate({ payload: body + crc16(body) })).toThrow(/no room/);
  });

  it('refuses a code that is not a static QR Ph code for pesos, saying why', () => {
    const broken = `${realPayloads.bdoStatic.slice(0, -4)}0000`;
    expect(() => qrPhTemplate({ payload: broken })).toThrow(/CRC/);
    expect(() => qrPhTemplate({ payload: realPayloads.maya50000 })).toThrow(/static code/);
    expect(() => qrPhTemplate({ payload: 'hello' })).toThrow(/not a QR code/);
    expect(() => qrPhTemplate({ payload: `${realPayloads.bdoStatic} ` })).toThrow(QrPhError);
    // Singapore's PayNow: an EMV code, but not QR Ph.
    const paynow =
      '00020101021226570009SG.PAYNOW010120213201929813CSPW030110513SPW658227463052040000530370254031005802SG5925SHOPEEPAY PRIVATE LIMITED6009SINGAPORE630426E1';
    expect(crcValid(paynow)).toBe(true);
    expect(() => qrPhTemplate({ payload: paynow })).toThrow(/not a QR Ph code/);
  });
});

describe('the code a borrower scans', () => {
  it('carries the amount due now up to the InstaPay limit, else lets the payer type it', () => {
    const due = paymentQr(maya, { reference: 'HL-26-000002', amountDueMinor: 472_798 });
    expect(due.amountMinor).toBe(472_798);
    expect(decodeQrPh(due.payload).pointOfInitiation).toBe('dynamic');
    const nothingDue = paymentQr(maya, { reference: 'HL-26-000002', amountDueMinor: 0 });
    expect(nothingDue.amountMinor).toBeNull();
    expect(decodeQrPh(nothingDue.payload)).toMatchObject({ pointOfInitiation: 'static', amountMinor: null });
    expect(decodeQrPh(nothingDue.payload).reference).toBe('HL-26-000002');
    expect(paymentQr(maya, { reference: 'R', amountDueMinor: INSTAPAY_LIMIT_MINOR }).amountMinor).toBe(
      INSTAPAY_LIMIT_MINOR,
    );
    expect(
      paymentQr(maya, { reference: 'R', amountDueMinor: INSTAPAY_LIMIT_MINOR + 1 }).amountMinor,
    ).toBeNull();
    expect(
      paymentQr(maya, { reference: 'R', amountDueMinor: 200, maxAmountMinor: 100 }).amountMinor,
    ).toBeNull();
  });
});

const ans = (min: number, max: number) =>
  fc
    .string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: min,
      maxLength: max,
    })
    .filter((s) => s.length >= min);
const alnum = (max: number) => fc.stringMatching(new RegExp(`^[0-9A-Za-z]{1,${max}}$`));

const fieldsArbitrary: fc.Arbitrary<QrPhFields> = fc.oneof(
  fc.record({
    type: fc.constant('p2p' as const),
    bic: fc.stringMatching(/^[A-Z]{4}PH[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/),
    accountNumber: alnum(34),
    mobileNumber: fc.option(fc.stringMatching(/^\+63-9\d{2}-\d{7}$/), { nil: undefined }),
    merchantName: ans(1, 25),
    merchantCity: ans(1, 15),
    postalCode: fc.option(alnum(10), { nil: undefined }),
    merchantCategoryCode: fc.option(fc.stringMatching(/^\d{4}$/), { nil: undefined }),
  }),
  fc.record({
    type: fc.constant('p2m' as const),
    bic: fc.stringMatching(/^[A-Z]{4}PH[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/),
    merchantId: ans(1, 32),
    merchantName: ans(1, 25),
    merchantCity: ans(1, 15),
    postalCode: fc.option(alnum(10), { nil: undefined }),
    merchantCategoryCode: fc.stringMatching(/^\d{4}$/),
  }),
);

describe('every code built', () => {
  it('has a CRC that validates and parses back to what was put in', () => {
    fc.assert(
      fc.property(
        fieldsArbitrary,
        fc.option(fc.integer({ min: 1, max: 99_999_999_999 }), { nil: null }),
        fc.option(ans(1, MAX_REFERENCE), { nil: null }),
        (fields, amountMinor, reference) => {
          const payload = buildQrPhPayload(fields, { amountMinor, reference });
          expect(crcValid(payload)).toBe(true);
          expect(payload.length).toBeLessThanOrEqual(512);
          expect(encodeTlv(parseTlv(payload))).toBe(payload);
          const decoded = decodeQrPh(payload);
          expect(decoded.items[0]).toEqual({ tag: '00', value: '01' });
          expect(decoded.items.at(-1)?.tag).toBe('63');
          expect(decoded).toMatchObject({
            crcValid: true,
            pointOfInitiation: amountMinor === null ? 'static' : 'dynamic',
            amountMinor,
            currency: '608',
            country: 'PH',
            merchantName: fields.merchantName,
            merchantCity: fields.merchantCity,
            postalCode: fields.postalCode ?? null,
          });
          expect(decoded.account?.bic).toBe(fields.bic);
          if (fields.type === 'p2p') expect(decoded.account?.accountNumber).toBe(fields.accountNumber);
          else expect(decoded.account?.merchantId).toBe(fields.merchantId);
          if (reference !== null) {
            expect(decoded.reference).toBe(reference);
            expect(decoded.purpose).toBe(reference);
          }
          // The same code given back as the lender's static code makes the same payment code.
          const staticCode = buildQrPhPayload(fields);
          expect(buildQrPhPayload({ payload: staticCode }, { amountMinor, reference })).toBe(payload);
        },
      ),
      { numRuns: 500 },
    );
  });
});
