import type { BorrowerMessage } from './borrower-messages';
import { writeIsoDate } from './date-text';
import type { Language } from './languages';
import { intlLocales } from './languages';
import { formatMoney, fromMinorToMajorString } from './money';

/*
 * Every SMS the server sends, in the recipient's language (issue #36): one catalogue, pure data and
 * formatting, so the server fills it and the tests can read every text. `{name}` is a parameter; `_one` and
 * `_other` pick a count's wording by Intl.PluralRules of the language.
 *
 * Length (sms-texts.test.ts): a code SMS in English or Filipino fits one GSM-7 segment (160 characters of the
 * GSM-7 alphabet), so it costs one message and arrives whole; Chinese and Khmer go as UCS-2 in at most three.
 * That is why code texts are terse and write money with the currency code ("PHP 5,000.00"): "₱" is not in
 * GSM-7 and would turn the whole message into UCS-2 (70 characters a segment).
 */

const en = {
  /** The safety line every code SMS carries: a scammer asks for exactly these. */
  safety: 'We will never ask you for this code or for a fee to release your loan.',
  signupCode: 'Hiram: your sign-up code is {code}. It expires in 5 minutes. {safety}',
  /** To a registered phone instead of a sign-up code (issue #33): no code in it. */
  signupNotice:
    'Hiram: someone tried to create an account with your phone number. You already have one: sign in, or ' +
    'tap "Forgot password?" on the login page. If it was not you, ignore this message. We will never ask ' +
    'you for a code.',
  passwordResetCode: 'Hiram: your password reset code is {code}. It expires in 5 minutes. {safety}',
  /** A staff member reset the password at the borrower's request; the borrower chooses a new one. */
  passwordResetByStaff:
    'Hiram: your password was reset. Use code {code} in "Forgot password?" (5 min). {safety}',
  withdrawalCode: 'Hiram: withdrawal code {code} for {amount} to {destination}, valid 5 min. {safety}',
  termsChangeCode: 'Hiram: code {code} to accept new loan terms ({amount}, {term}), valid 5 min. {safety}',
  months_one: '{n} month',
  months_other: '{n} months',
  complaintReply: 'Hiram: we replied to your complaint {reference}. Open My Account in the app to read it.',
  complaintResolved:
    'Hiram: your complaint {reference} has been resolved. Open My Account in the app to read how.',
  reminder:
    'Hiram reminder: {fact} {howToPay} If you have already paid, thank you and please ignore this. ' +
    'Questions or trouble paying: {support}.',
  reminderBeforeDue: 'your payment of {amount} for loan {loan} is due on {date}.',
  reminderDueToday: 'your payment of {amount} for loan {loan} is due today, {date}.',
  reminderDuePast: 'your payment of {amount} for loan {loan} was due on {date}.',
  reminderOverdue: '{amount} on loan {loan} is past due, the oldest part since {date} ({days}).',
  reminderPayTo: 'Pay with reference {loan} to {channels}.',
  reminderPayAsk: 'Quote {loan} as the payment reference; for how to pay, contact {support}.',
  approved: 'Hiram: loan {loan} is approved for {amount}. Withdraw it in the app when you are ready.',
  declined: 'Hiram: your application {loan} was declined. Reason: {reason}',
  declinedSeeApp: 'Hiram: your application {loan} was declined. The reason is in the app.',
  payoutPaid: 'Hiram: we sent {amount} for loan {loan} to your account ending {last4}.',
  payoutFailed: 'Hiram: your payout of {amount} for loan {loan} failed: {reason}',
  payoutFailedSeeApp: 'Hiram: your payout of {amount} for loan {loan} failed. The reason is in the app.',
  termsProposed:
    'Hiram: we propose new terms for loan {loan}. Review them in the app; they apply only if you accept ' +
    'them with a code we send you.',
  paymentReceived: 'Hiram: we received {amount} for loan {loan}. Still owed: {owed}.',
  paymentReversed: 'Hiram: your payment of {amount} for loan {loan} was reversed. Reason: {reason}',
  paymentReversedSeeApp:
    'Hiram: your payment of {amount} for loan {loan} was reversed. The reason is in the app.',
  loanClosed: 'Hiram: we received {amount}. Loan {loan} is paid in full and closed.',
  loanClosedHeld: 'We hold {held} paid above the payoff for you and will refund it.',
  creditRefunded: 'Hiram: we sent back {amount} you paid above loan {loan}. Transfer reference: {reference}',
  creditRefundedSeeApp:
    'Hiram: we sent back {amount} you paid above loan {loan}. The transfer reference is in the app.',
  days_one: '{n} day',
  days_other: '{n} days',
};

export type SmsKey = keyof typeof en;
type Catalogue = Record<SmsKey, string>;

const fil: Catalogue = {
  safety: 'Hindi namin hihingin ang code na ito o bayad para ilabas ang pautang mo.',
  signupCode: 'Hiram: ang sign-up code mo ay {code}. Mag-e-expire ito sa 5 minuto. {safety}',
  signupNotice:
    'Hiram: may sumubok gumawa ng account gamit ang numero mo. May account ka na: mag-sign in, o pindutin ' +
    'ang "Nakalimutan ang password?" sa login page. Kung hindi ikaw iyon, huwag pansinin ito. Hindi kami ' +
    'kailanman hihingi ng code.',
  passwordResetCode: 'Hiram: ang password reset code mo ay {code}. Mag-e-expire ito sa 5 minuto. {safety}',
  passwordResetByStaff:
    'Hiram: na-reset ang password mo. Ilagay ang code {code} sa login page (5 min). {safety}',
  withdrawalCode: 'Hiram: withdrawal code {code}: {amount} sa {destination}; 5 min. {safety}',
  termsChangeCode: 'Hiram: code {code} para tanggapin ang bagong terms ({amount}, {term}); 5 min. {safety}',
  months_one: '{n} buwan',
  months_other: '{n} buwan',
  complaintReply:
    'Hiram: sinagot namin ang reklamo mo {reference}. Buksan ang Aking Account sa app para mabasa ito.',
  complaintResolved:
    'Hiram: nalutas na ang reklamo mo {reference}. Buksan ang Aking Account sa app para makita kung paano.',
  reminder:
    'Paalala ng Hiram: {fact} {howToPay} Kung nakapagbayad ka na, salamat at huwag nang pansinin ito. ' +
    'Mga tanong o hirap sa pagbabayad: {support}.',
  reminderBeforeDue: 'ang bayad mong {amount} para sa pautang {loan} ay dapat bayaran sa {date}.',
  reminderDueToday: 'ang bayad mong {amount} para sa pautang {loan} ay dapat bayaran ngayong araw, {date}.',
  reminderDuePast: 'ang bayad mong {amount} para sa pautang {loan} ay dapat nabayaran noong {date}.',
  reminderOverdue:
    'lampas na sa takdang petsa ang {amount} ng pautang {loan}; ang pinakaluma ay mula pa noong {date} ({days}).',
  reminderPayTo: 'Magbayad gamit ang reference na {loan} sa {channels}.',
  reminderPayAsk:
    'Gamitin ang {loan} bilang reference ng bayad; para malaman kung paano magbayad, sumulat sa {support}.',
  approved: 'Hiram: aprubado ang pautang {loan} para sa {amount}. I-withdraw ito sa app kapag handa ka na.',
  declined: 'Hiram: hindi naaprubahan ang aplikasyon mo {loan}. Dahilan: {reason}',
  declinedSeeApp: 'Hiram: hindi naaprubahan ang aplikasyon mo {loan}. Nasa app ang dahilan.',
  payoutPaid:
    'Hiram: ipinadala namin ang {amount} para sa pautang {loan} sa account mong nagtatapos sa {last4}.',
  payoutFailed: 'Hiram: hindi naipadala ang {amount} para sa pautang {loan}: {reason}',
  payoutFailedSeeApp: 'Hiram: hindi naipadala ang {amount} para sa pautang {loan}. Nasa app ang dahilan.',
  termsProposed:
    'Hiram: may bagong terms kaming inaalok para sa pautang {loan}. Suriin sa app; magkakabisa lang ang ' +
    'mga ito kung tatanggapin mo gamit ang code na ipapadala namin.',
  paymentReceived: 'Hiram: natanggap namin ang {amount} para sa pautang {loan}. Natitirang utang: {owed}.',
  paymentReversed: 'Hiram: binawi ang bayad mong {amount} para sa pautang {loan}. Dahilan: {reason}',
  paymentReversedSeeApp:
    'Hiram: binawi ang bayad mong {amount} para sa pautang {loan}. Nasa app ang dahilan.',
  loanClosed: 'Hiram: natanggap namin ang {amount}. Bayad na nang buo at sarado na ang pautang {loan}.',
  loanClosedHeld: 'May {held} kang sobrang bayad na hawak namin at ibabalik namin ito.',
  creditRefunded:
    'Hiram: ibinalik namin ang {amount} na sobra mong bayad sa pautang {loan}. Reference: {reference}',
  creditRefundedSeeApp:
    'Hiram: ibinalik namin ang {amount} na sobra mong bayad sa pautang {loan}. Nasa app ang reference.',
  days_one: '{n} araw',
  days_other: '{n} araw',
};

const zh: Catalogue = {
  safety: '我们绝不会向您索要此验证码，也不会以发放贷款为由向您收取任何费用。',
  signupCode: 'Hiram：您的注册验证码是 {code}，5 分钟内有效。{safety}',
  signupNotice:
    'Hiram：有人试图用您的手机号码注册账户。您已有账户：请直接登录，或在登录页点击“忘记密码？”。' +
    '如果不是您本人操作，请忽略此短信。我们绝不会向您索要验证码。',
  passwordResetCode: 'Hiram：您的密码重置验证码是 {code}，5 分钟内有效。{safety}',
  passwordResetByStaff:
    'Hiram：您的密码已按您的要求重置。请在登录页点击“忘记密码？”并输入验证码 {code} 设置新密码，5 分钟内有效。{safety}',
  withdrawalCode: 'Hiram：您的提现验证码是 {code}，提现 {amount} 至 {destination}，5 分钟内有效。{safety}',
  termsChangeCode:
    'Hiram：您的验证码是 {code}，用于接受新的贷款条款（{amount}，{term}），5 分钟内有效。{safety}',
  months_one: '{n} 个月',
  months_other: '{n} 个月',
  complaintReply: 'Hiram：我们已回复您的投诉 {reference}。请在应用的“我的账户”中查看。',
  complaintResolved: 'Hiram：您的投诉 {reference} 已处理完毕。请在应用的“我的账户”中查看处理结果。',
  reminder:
    'Hiram 还款提醒：{fact}{howToPay}如您已付款，谢谢，请忽略此短信。如有疑问或还款困难，请联系：{support}。',
  reminderBeforeDue: '您贷款 {loan} 的 {amount} 还款将于 {date} 到期。',
  reminderDueToday: '您贷款 {loan} 的 {amount} 还款今天（{date}）到期。',
  reminderDuePast: '您贷款 {loan} 的 {amount} 还款已于 {date} 到期。',
  reminderOverdue: '您贷款 {loan} 的 {amount} 已逾期，最早一笔自 {date} 起（{days}）。',
  reminderPayTo: '请以 {loan} 作为付款参考号，付款至：{channels}。',
  reminderPayAsk: '请以 {loan} 作为付款参考号；付款方式请联系 {support}。',
  approved: 'Hiram：您的贷款 {loan} 已获批准，金额 {amount}。您可随时在应用中提现。',
  declined: 'Hiram：您的申请 {loan} 未获批准。原因：{reason}',
  declinedSeeApp: 'Hiram：您的申请 {loan} 未获批准。原因请在应用中查看。',
  payoutPaid: 'Hiram：我们已将贷款 {loan} 的 {amount} 转入您尾号 {last4} 的账户。',
  payoutFailed: 'Hiram：贷款 {loan} 的 {amount} 放款失败：{reason}',
  payoutFailedSeeApp: 'Hiram：贷款 {loan} 的 {amount} 放款失败。原因请在应用中查看。',
  termsProposed:
    'Hiram：我们为贷款 {loan} 提出了新条款。请在应用中查看；只有您用我们发送的验证码接受后才会生效。',
  paymentReceived: 'Hiram：我们已收到贷款 {loan} 的还款 {amount}。尚欠：{owed}。',
  paymentReversed: 'Hiram：您为贷款 {loan} 支付的 {amount} 已被撤销。原因：{reason}',
  paymentReversedSeeApp: 'Hiram：您为贷款 {loan} 支付的 {amount} 已被撤销。原因请在应用中查看。',
  loanClosed: 'Hiram：我们已收到 {amount}。贷款 {loan} 已全部还清并结清。',
  loanClosedHeld: '您多付的 {held} 由我们代为保管，将退还给您。',
  creditRefunded: 'Hiram：您为贷款 {loan} 多付的 {amount} 已退还给您。转账参考号：{reference}',
  creditRefundedSeeApp: 'Hiram：您为贷款 {loan} 多付的 {amount} 已退还给您。转账参考号请在应用中查看。',
  days_one: '{n} 天',
  days_other: '{n} 天',
};

const km: Catalogue = {
  safety: 'យើងនឹងមិនសុំលេខកូដនេះពីអ្នក ឬសុំកម្រៃណាមួយដើម្បីបញ្ចេញប្រាក់កម្ចីរបស់អ្នកឡើយ។',
  signupCode: 'Hiram៖ លេខកូដចុះឈ្មោះរបស់អ្នកគឺ {code}។ វាផុតកំណត់ក្នុងរយៈពេល 5 នាទី។ {safety}',
  signupNotice:
    'Hiram៖ មាននរណាម្នាក់បានព្យាយាមបង្កើតគណនីដោយប្រើលេខទូរស័ព្ទរបស់អ្នក។ អ្នកមានគណនីរួចហើយ៖ សូមចូលគណនី ' +
    'ឬចុច "ភ្លេចពាក្យសម្ងាត់?" នៅទំព័រចូល។ ប្រសិនបើមិនមែនជាអ្នកទេ សូមមិនអើពើសារនេះ។ ' +
    'យើងនឹងមិនសុំលេខកូដពីអ្នកឡើយ។',
  passwordResetCode: 'Hiram៖ លេខកូដកំណត់ពាក្យសម្ងាត់ឡើងវិញរបស់អ្នកគឺ {code}។ វាផុតកំណត់ក្នុងរយៈពេល 5 នាទី។ {safety}',
  passwordResetByStaff:
    'Hiram៖ ពាក្យសម្ងាត់របស់អ្នកត្រូវបានកំណត់ឡើងវិញ។ សូមបញ្ចូលលេខកូដ {code} នៅ "ភ្លេចពាក្យសម្ងាត់?" ' +
    'ក្នុងរយៈពេល 5 នាទី។ {safety}',
  withdrawalCode:
    'Hiram៖ លេខកូដដកប្រាក់របស់អ្នកគឺ {code} សម្រាប់ {amount} ទៅ {destination}។ មានសុពលភាព 5 នាទី។ {safety}',
  termsChangeCode: 'Hiram៖ លេខកូដ {code} ដើម្បីទទួលយកលក្ខខណ្ឌកម្ចីថ្មី ({amount}, {term})។ មានសុពលភាព 5 នាទី។ {safety}',
  months_one: '{n} ខែ',
  months_other: '{n} ខែ',
  complaintReply: 'Hiram៖ យើងបានឆ្លើយតបបណ្តឹងរបស់អ្នក {reference}។ សូមបើក "គណនីរបស់ខ្ញុំ" ក្នុងកម្មវិធីដើម្បីអាន។',
  complaintResolved:
    'Hiram៖ បណ្តឹងរបស់អ្នក {reference} ត្រូវបានដោះស្រាយរួចហើយ។ សូមបើក "គណនីរបស់ខ្ញុំ" ក្នុងកម្មវិធីដើម្បីអានពីរបៀបដោះស្រាយ។',
  reminder:
    'ការរំលឹកពី Hiram៖ {fact} {howToPay} ប្រសិនបើអ្នកបានបង់ប្រាក់រួចហើយ សូមអរគុណ ហើយសូមមិនអើពើសារនេះ។ ' +
    'សំណួរ ឬការលំបាកក្នុងការបង់ប្រាក់៖ {support}។',
  reminderBeforeDue: 'ការបង់ប្រាក់ {amount} សម្រាប់កម្ចី {loan} របស់អ្នក ដល់កំណត់នៅថ្ងៃ {date}។',
  reminderDueToday: 'ការបង់ប្រាក់ {amount} សម្រាប់កម្ចី {loan} របស់អ្នក ដល់កំណត់ថ្ងៃនេះ {date}។',
  reminderDuePast: 'ការបង់ប្រាក់ {amount} សម្រាប់កម្ចី {loan} របស់អ្នក បានដល់កំណត់នៅថ្ងៃ {date}។',
  reminderOverdue: '{amount} នៃកម្ចី {loan} ហួសកាលកំណត់ហើយ ផ្នែកចាស់បំផុតតាំងពីថ្ងៃ {date} ({days})។',
  reminderPayTo: 'សូមបង់ប្រាក់ដោយប្រើលេខយោង {loan} ទៅ {channels}។',
  reminderPayAsk: 'សូមប្រើ {loan} ជាលេខយោងនៃការបង់ប្រាក់។ សម្រាប់របៀបបង់ប្រាក់ សូមទាក់ទង {support}។',
  approved: 'Hiram៖ កម្ចី {loan} ត្រូវបានអនុម័តសម្រាប់ {amount}។ សូមដកប្រាក់ក្នុងកម្មវិធីនៅពេលអ្នករួចរាល់។',
  declined: 'Hiram៖ ពាក្យស្នើសុំ {loan} របស់អ្នកមិនត្រូវបានអនុម័តទេ។ មូលហេតុ៖ {reason}',
  declinedSeeApp: 'Hiram៖ ពាក្យស្នើសុំ {loan} របស់អ្នកមិនត្រូវបានអនុម័តទេ។ មូលហេតុមាននៅក្នុងកម្មវិធី។',
  payoutPaid: 'Hiram៖ យើងបានផ្ញើ {amount} សម្រាប់កម្ចី {loan} ទៅគណនីរបស់អ្នកដែលបញ្ចប់ដោយ {last4}។',
  payoutFailed: 'Hiram៖ ការបើកប្រាក់ {amount} សម្រាប់កម្ចី {loan} បានបរាជ័យ៖ {reason}',
  payoutFailedSeeApp: 'Hiram៖ ការបើកប្រាក់ {amount} សម្រាប់កម្ចី {loan} បានបរាជ័យ។ មូលហេតុមាននៅក្នុងកម្មវិធី។',
  termsProposed:
    'Hiram៖ យើងស្នើលក្ខខណ្ឌថ្មីសម្រាប់កម្ចី {loan}។ សូមពិនិត្យក្នុងកម្មវិធី។ វាមានប្រសិទ្ធភាពតែពេលអ្នកទទួលយក' +
    'ដោយលេខកូដដែលយើងផ្ញើជូនប៉ុណ្ណោះ។',
  paymentReceived: 'Hiram៖ យើងបានទទួល {amount} សម្រាប់កម្ចី {loan}។ នៅជំពាក់៖ {owed}។',
  paymentReversed: 'Hiram៖ ការបង់ប្រាក់ {amount} របស់អ្នកសម្រាប់កម្ចី {loan} ត្រូវបានលុបចោល។ មូលហេតុ៖ {reason}',
  paymentReversedSeeApp: 'Hiram៖ ការបង់ប្រាក់ {amount} របស់អ្នកសម្រាប់កម្ចី {loan} ត្រូវបានលុបចោល។ មូលហេតុមាននៅក្នុងកម្មវិធី។',
  loanClosed: 'Hiram៖ យើងបានទទួល {amount}។ កម្ចី {loan} ត្រូវបានបង់គ្រប់ និងបិទហើយ។',
  loanClosedHeld: 'យើងរក្សាទុក {held} ដែលអ្នកបង់លើស ហើយនឹងបង្វិលជូនអ្នកវិញ។',
  creditRefunded:
    'Hiram៖ យើងបានបង្វិល {amount} ដែលអ្នកបង់លើសសម្រាប់កម្ចី {loan} ជូនអ្នកវិញ។ លេខយោងផ្ទេរប្រាក់៖ {reference}',
  creditRefundedSeeApp:
    'Hiram៖ យើងបានបង្វិល {amount} ដែលអ្នកបង់លើសសម្រាប់កម្ចី {loan} ជូនអ្នកវិញ។ លេខយោងផ្ទេរប្រាក់មាននៅក្នុងកម្មវិធី។',
  days_one: '{n} ថ្ងៃ',
  days_other: '{n} ថ្ងៃ',
};

/** The catalogue, every language with every key (sms-texts.test.ts checks keys and parameters). */
export const smsCatalogue: Record<Language, Catalogue> = { en, fil, zh, km };

type Params = Record<string, string | number>;

/** A catalogue text with its parameters filled in; a parameter left unfilled is a bug, so it throws. */
function fill(language: Language, key: SmsKey, params: Params = {}): string {
  const catalogue = smsCatalogue[language];
  return catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'safety') return catalogue.safety;
    const value = params[name];
    if (value === undefined) throw new Error(`SMS ${language}.${key}: no value for {${name}}`);
    return String(value);
  });
}

/** A count with its noun ("4 days", "4 天"), the count written by Intl for the language. */
function counted(language: Language, noun: 'days' | 'months', n: number): string {
  const locale = intlLocales[language];
  const form = new Intl.PluralRules(locale).select(n) === 'one' ? 'one' : 'other';
  return fill(language, `${noun}_${form}`, { n: new Intl.NumberFormat(locale).format(n) });
}

/**
 * Money in a code SMS. English and Filipino: with the currency code ("PHP 5,000.00") and a plain space, both
 * GSM-7, so the code arrives in one segment. Chinese and Khmer are UCS-2 anyway and are written exactly as
 * the screens write money (domain formatMoney, "₱5,000.00").
 */
export function codeSmsMoney(language: Language, minor: number): string {
  if (language === 'zh' || language === 'km') return formatMoney(minor, { locale: intlLocales[language] });
  const text = new Intl.NumberFormat(intlLocales[language], {
    style: 'currency',
    currency: 'PHP',
    currencyDisplay: 'code',
  }).format(fromMinorToMajorString(minor) as `${number}`);
  // Intl separates the code with a no-break space, which GSM-7 does not have.
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

export const codeSms = {
  signup: (language: Language, code: string) => fill(language, 'signupCode', { code }),
  passwordReset: (language: Language, code: string) => fill(language, 'passwordResetCode', { code }),
  passwordResetByStaff: (language: Language, code: string) =>
    fill(language, 'passwordResetByStaff', { code }),
  /** `destination`: the bank or wallet and the account's last four digits ("BDO ****4567"). */
  withdrawal: (language: Language, code: string, amountMinor: number, destination: string) =>
    fill(language, 'withdrawalCode', { code, amount: codeSmsMoney(language, amountMinor), destination }),
  termsChange: (language: Language, code: string, amountMinor: number, termMonths: number) =>
    fill(language, 'termsChangeCode', {
      code,
      amount: codeSmsMoney(language, amountMinor),
      term: counted(language, 'months', termMonths),
    }),
};

/** Told to a registered phone's owner instead of a sign-up code. */
export const signupNoticeSms = (language: Language) => fill(language, 'signupNotice');

export const complaintSms = (language: Language, kind: 'reply' | 'resolved', reference: string) =>
  fill(language, kind === 'reply' ? 'complaintReply' : 'complaintResolved', { reference });

/** What a payment reminder says (domain `reminderText` decides which and passes the facts). */
export interface ReminderSmsFacts {
  kind: 'before_due' | 'due_today' | 'due_past' | 'overdue';
  amountMinor: number;
  /** The instalment's due date, or for overdue the oldest unpaid one, 'YYYY-MM-DD'. */
  date: string;
  daysPastDue: number;
  loanNumber: string;
  /** "GCash 0917 555 0101" for each channel the borrower can pay to; none: ask support. */
  channels: readonly string[];
  supportEmail: string;
}

const reminderFactKeys = {
  before_due: 'reminderBeforeDue',
  due_today: 'reminderDueToday',
  due_past: 'reminderDuePast',
  overdue: 'reminderOverdue',
} as const satisfies Record<ReminderSmsFacts['kind'], SmsKey>;

/**
 * A payment reminder: money and dates written as the screens write them (domain formatMoney and
 * writeIsoDate for the language), never by hand. Facts only, never a threat.
 */
export function reminderSms(language: Language, facts: ReminderSmsFacts): string {
  const loan = facts.loanNumber;
  const date = writeIsoDate(language, facts.date);
  if (date === null) throw new Error(`not a date: ${facts.date}`);
  const fact = fill(language, reminderFactKeys[facts.kind], {
    amount: formatMoney(facts.amountMinor, { locale: intlLocales[language] }),
    loan,
    date,
    days: counted(language, 'days', facts.daysPastDue),
  });
  const howToPay =
    facts.channels.length > 0
      ? fill(language, 'reminderPayTo', { loan, channels: facts.channels.join('; ') })
      : fill(language, 'reminderPayAsk', { loan, support: facts.supportEmail });
  return fill(language, 'reminder', { fact, howToPay, support: facts.supportEmail });
}

/** The GSM 03.38 basic alphabet and its extension table: a text of only these goes as GSM-7. */
const gsm7 = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€',
);

/** A staff reason longer than this is not quoted in an SMS: the message says the reason is in the app. */
export const SMS_REASON_MAX = 60;

/**
 * The gist of a staff reason for an SMS, or null to point to the app instead: short enough to keep the message
 * short, and (English and Filipino) only GSM-7 characters, so one "₱" or curly quote in a reason does not
 * turn the message into UCS-2 and double its segments.
 */
export function smsReasonGist(language: Language, reason: string | null): string | null {
  const text = reason?.replace(/\s+/g, ' ').trim() ?? '';
  if (text === '' || [...text].length > SMS_REASON_MAX) return null;
  if ((language === 'en' || language === 'fil') && ![...text].every((c) => gsm7.has(c))) return null;
  return text;
}

/**
 * The SMS for a change that matters to the borrower (issue #36): facts only, money as code SMS write it (GSM-7
 * in English and Filipino), a reason quoted only when short.
 */
export function borrowerMessageSms(language: Language, message: BorrowerMessage): string {
  const money = (minor: number) => codeSmsMoney(language, minor);
  switch (message.kind) {
    case 'application_approved':
      return fill(language, 'approved', { loan: message.loanNumber, amount: money(message.amountMinor) });
    case 'application_declined': {
      const reason = smsReasonGist(language, message.reason);
      return reason === null
        ? fill(language, 'declinedSeeApp', { loan: message.loanNumber })
        : fill(language, 'declined', { loan: message.loanNumber, reason });
    }
    case 'payout_paid':
      return fill(language, 'payoutPaid', {
        loan: message.loanNumber,
        amount: money(message.sentMinor),
        last4: message.accountLast4,
      });
    case 'payout_failed': {
      const reason = smsReasonGist(language, message.reason);
      const params = { loan: message.loanNumber, amount: money(message.amountMinor) };
      return reason === null
        ? fill(language, 'payoutFailedSeeApp', params)
        : fill(language, 'payoutFailed', { ...params, reason });
    }
    case 'terms_proposed':
      return fill(language, 'termsProposed', { loan: message.loanNumber });
    case 'payment_received':
      return fill(language, 'paymentReceived', {
        loan: message.loanNumber,
        amount: money(message.amountMinor),
        owed: money(message.owedMinor),
      });
    case 'payment_reversed': {
      const reason = smsReasonGist(language, message.reason);
      const params = { loan: message.loanNumber, amount: money(message.amountMinor) };
      return reason === null
        ? fill(language, 'paymentReversedSeeApp', params)
        : fill(language, 'paymentReversed', { ...params, reason });
    }
    case 'loan_closed': {
      const closed = fill(language, 'loanClosed', {
        loan: message.loanNumber,
        amount: money(message.amountMinor),
      });
      if (message.heldMinor <= 0) return closed;
      const held = fill(language, 'loanClosedHeld', { held: money(message.heldMinor) });
      return `${closed}${language === 'zh' ? '' : ' '}${held}`;
    }
    case 'credit_refunded': {
      // The transfer's reference is quoted by the rule of a reason: short, and GSM-7 in en and fil.
      const reference = smsReasonGist(language, message.reference);
      const params = { loan: message.loanNumber, amount: money(message.amountMinor) };
      return reference === null
        ? fill(language, 'creditRefundedSeeApp', params)
        : fill(language, 'creditRefunded', { ...params, reference });
    }
    case 'complaint_reply':
      return complaintSms(language, 'reply', message.reference);
    case 'complaint_resolved':
      return complaintSms(language, 'resolved', message.reference);
  }
}
