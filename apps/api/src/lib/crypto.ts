import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** Opaque high-entropy tokens; only their SHA-256 is stored, so a database leak gives nothing usable. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'outlay', purpose, 32));
}

/** AES-256-GCM for secrets the server must read back (TOTP seeds). */
export function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    ':',
  );
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

const TEMP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** One of each is mixed into a temporary password, so it meets every complexity rule. */
const TEMP_CLASSES = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '#$%&*+=?@!'];

/**
 * `count` characters drawn uniformly from `alphabet`. crypto.randomInt rejects the values that
 * would favour the first characters (a byte modulo 57 makes 28 of them 25% likelier).
 */
export function randomString(alphabet: string, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** The characters of `text` in a uniformly random order (Fisher-Yates). */
function shuffled(text: string): string {
  const chars = [...text];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/**
 * A random temporary password of `length` characters that satisfies every complexity rule: one
 * uppercase letter, lowercase letter, digit and symbol at random places, the rest from the
 * whole alphabet.
 */
export function temporaryPassword(length = 20): string {
  const required = TEMP_CLASSES.map((chars) => randomString(chars, 1)).join('');
  return shuffled(required + randomString(TEMP_ALPHABET, Math.max(0, length - required.length)));
}

const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function recoveryCode(): string {
  const chars = randomString(RECOVERY_ALPHABET, 10);
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}
