// The HTTP checks of scripts/deploy-check.sh against the compose deployment (issue #34), each a subcommand:
//   pictures A B S3 STATE   a borrower signs up and applies on instance A with four pictures; the pictures
//                           are in the bucket (read at S3) and instance B serves each byte for byte; the
//                           borrower and the pictures' digests go to STATE (JSON) for `signin`
//   signin BASE STATE       that borrower signs in at BASE, sees the application and every picture as before
//   load PROXY SECONDS      signed-in traffic through the proxy for SECONDS; any failed request fails
// SMS codes are read from the test gateway's log (SMS_CONTAINER, a container name or id). TLS: Caddy's local CA.
// Env for `pictures`: S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (the store's key).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
const [command, ...args] = process.argv.slice(2);
let failed = false;
const check = (label, ok, detail = '') => {
  console.info(`${ok ? 'OK  ' : 'FAIL'} ${label}${detail ? ` (${detail})` : ''}`);
  if (!ok) failed = true;
  return ok;
};
const sha256 = (buffer) => createHash('sha256').update(buffer).digest('hex');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A browser: cookies, the CSRF token, and the headers a browser on the public origin sends. */
class Browser {
  cookies = new Map();
  csrf = null;
  async req(base, method, path, { json, raw, type } = {}) {
    const headers = { origin: 'https://localhost', 'x-forwarded-proto': 'https' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    let body;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    } else if (raw) {
      headers['content-type'] = type;
      body = raw;
    }
    const answer = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(15_000) });
    for (const cookie of answer.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      if (/max-age=0/i.test(cookie) || at === pair.length - 1) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const buffer = Buffer.from(await answer.arrayBuffer());
    let parsed = null;
    if ((answer.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(buffer.toString());
    if (parsed && typeof parsed === 'object' && 'csrfToken' in parsed) this.csrf = parsed.csrfToken;
    return { status: answer.status, body: parsed, buffer };
  }
}

function smsCode(phone) {
  const log = execFileSync('docker', ['logs', process.env.SMS_CONTAINER ?? 'sms-sink'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = log
    .split('\n')
    .filter((l) => l.startsWith('SMS') && l.includes(phone))
    .at(-1);
  return line?.match(/\b(\d{6})\b/)?.[1];
}

async function signUp(base, phone, password) {
  const browser = new Browser();
  const sent = await browser.req(base, 'POST', '/api/auth/signup/code', { json: { phone } });
  if (!check(`sign-up code requested at ${base}`, sent.status === 200, `${sent.status}`)) return null;
  let code;
  for (let i = 0; i < 20 && !code; i++) {
    await sleep(250);
    code = smsCode(phone);
  }
  if (!check('the code reached the SMS gateway', !!code)) return null;
  const notice = await browser.req(base, 'GET', '/api/privacy/notice');
  const privacyNoticeVersion = notice.body?.version ?? '2026-11-23';
  const signed = await browser.req(base, 'POST', '/api/auth/signup', {
    json: { phone, password, confirmPassword: password, code, privacyNoticeVersion },
  });
  check(`sign-up at ${base}`, signed.status === 201, `${signed.status} ${JSON.stringify(signed.body)}`);
  return browser;
}

async function logIn(base, phone, password) {
  const browser = new Browser();
  const login = await browser.req(base, 'POST', '/api/auth/login', { json: { identifier: phone, password } });
  check(`borrower signs in at ${base}`, login.status === 200, `${login.status}`);
  return login.status === 200 ? browser : null;
}

/** The borrower's own documents (their ids are what /api/files/:id serves). */
async function documentIds(browser, base) {
  const answer = await browser.req(base, 'GET', '/api/account/documents');
  return (answer.body?.items ?? []).map((item) => item.id);
}

async function pictures([A, B, S3, statePath]) {
  const phone = `0917${String(Date.now() % 1e7).padStart(7, '0')}`;
  const password = 'Borrower-deploy-check-1';
  if (!(await signUp(A, phone, password))) return;
  const browser = await logIn(A, phone, password);
  if (!browser) return;
  const quote = await browser.req(A, 'POST', '/api/applications/quote', {
    json: { amount: 50000, termMonths: 6 },
  });
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d8b45a' } })
    .png()
    .toBuffer();
  const signature = await sharp(
    Buffer.from(
      '<svg width="600" height="150" xmlns="http://www.w3.org/2000/svg"><path d="M20 120 C 120 10, 220 140, 320 40 S 520 120, 580 60" stroke="#111" stroke-width="4" fill="none"/></svg>',
    ),
  )
    .png()
    .toBuffer();
  const fields = {
    phone,
    amount: '50000',
    termMonths: '6',
    fullName: 'Maria Santos',
    idNumber: 'N01-23-456789',
    companyName: 'Santos Store',
    position: 'Owner',
    income: '35000',
    monthlyExpense: '12000',
    address: '12 Mabini St, Quezon City',
    contactName: 'Jose Santos',
    contactPhone: '09181234567',
    contactAddress: '12 Mabini St, Quezon City',
    contactRelation: 'sibling',
    bankName: 'GCash',
    accountNumber: '09171234567',
    disclosureSha256: quote.body?.disclosureSha256 ?? '',
  };
  const boundary = `----hiram${Date.now()}`;
  const parts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  for (const [name, data] of [
    ['idFront', photo],
    ['idBack', photo],
    ['selfie', photo],
    ['signature', signature],
  ]) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const submitted = await browser.req(A, 'POST', '/api/applications', {
    raw: Buffer.concat(parts),
    type: `multipart/form-data; boundary=${boundary}`,
  });
  if (
    !check('application with four pictures submitted on A', submitted.status === 201, `${submitted.status}`)
  )
    return;
  const id = submitted.body.id;

  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: S3,
    forcePathStyle: true,
    credentials: {
      accessKeyId: process.env.S3_ACCESS_KEY_ID,
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
    },
  });
  const listed = await s3.send(
    new ListObjectsV2Command({ Bucket: 'hiram-files', Prefix: `applications/${id}/` }),
  );
  const keys = (listed.Contents ?? []).map((object) => object.Key);
  check(
    'its four pictures are objects in the bucket',
    keys.length === 4,
    `${keys.length} under applications/${id.slice(0, 8)}…/`,
  );
  const stored = new Map();
  for (const key of keys) {
    const object = await s3.send(new GetObjectCommand({ Bucket: 'hiram-files', Key: key }));
    stored.set(sha256(Buffer.from(await object.Body.transformToByteArray())), key);
  }

  const onB = new Browser();
  onB.cookies = new Map(browser.cookies);
  onB.csrf = browser.csrf;
  const ids = await documentIds(onB, B);
  const served = {};
  for (const fileId of ids) {
    const file = await onB.req(B, 'GET', `/api/files/${fileId}`);
    served[fileId] = sha256(file.buffer);
    check(
      `B serves picture ${fileId.slice(0, 8)} as stored in the bucket`,
      file.status === 200 && stored.has(served[fileId]),
      `${file.status}, ${file.buffer.length} bytes`,
    );
  }
  check('B shows the four pictures', ids.length === 4, `${ids.length}`);
  writeFileSync(statePath, JSON.stringify({ phone, password, applicationId: id, files: served }));
}

async function signin([base, statePath]) {
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  const browser = await logIn(base, state.phone, state.password);
  if (!browser) return;
  const mine = await browser.req(base, 'GET', '/api/applications/mine');
  check(
    'the borrower sees the application',
    mine.body?.application?.id === state.applicationId,
    `${mine.status} ${mine.body?.application?.id}`,
  );
  check('four pictures to look for', Object.keys(state.files).length === 4);
  for (const [fileId, digest] of Object.entries(state.files)) {
    const file = await browser.req(base, 'GET', `/api/files/${fileId}`);
    check(
      `picture ${fileId.slice(0, 8)} is served as before`,
      file.status === 200 && sha256(file.buffer) === digest,
      `${file.status}`,
    );
  }
}

/** Eight signed-in borrowers' pages and API calls in a loop; every answer must be a 200. */
async function load([proxy, seconds]) {
  const phone = `0918${String(Date.now() % 1e7).padStart(7, '0')}`;
  const password = 'Borrower-load-check-1';
  if (!(await signUp(proxy, phone, password))) return;
  const browser = await logIn(proxy, phone, password);
  if (!browser) return;
  const until = Date.now() + Number(seconds) * 1000;
  const paths = ['/api/me', '/api/applications/mine', '/', '/api/health/ready'];
  let ok = 0;
  const failures = [];
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let i = worker; Date.now() < until; i++) {
        const path = paths[i % paths.length];
        const at = new Date().toISOString().slice(11, 23);
        try {
          const answer = await browser.req(proxy, 'GET', path);
          if (answer.status === 200) ok++;
          else failures.push(`${at} ${path} ${answer.status}`);
        } catch (error) {
          failures.push(`${at} ${path} ${error.cause?.code ?? error.message}`);
        }
      }
    }),
  );
  check(
    `${ok + failures.length} requests through the proxy in ${seconds} s, none failed`,
    failures.length === 0,
    failures.length ? `${failures.length} failed: ${failures.slice(0, 5).join('; ')}` : `${ok} OK`,
  );
}

const commands = { pictures, signin, load };
if (!commands[command]) {
  console.error('usage: deploy-check.mjs pictures|signin|load …');
  process.exit(2);
}
await commands[command](args);
process.exit(failed ? 1 : 0);
