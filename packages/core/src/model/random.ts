/**
 * Random values from the platform's CSPRNG (Web Crypto), drawn from a pooled buffer: one
 * `getRandomValues` call per 4 KiB instead of one per token, which matters at thousands of questions/s.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;

/** `count` fresh random bytes (count ≤ 4096). */
export function randomBytes(count: number): Uint8Array {
  if (offset + count > pool.length) {
    pool = new Uint8Array(POOL_BYTES);
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const bytes = pool.slice(offset, offset + count);
  pool.fill(0, offset, offset + count);
  offset += count;
  return bytes;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `bytes` random bytes as base64url without padding (a multiple of 3 bytes gives no partial groups). */
export function randomBase64Url(bytes: number): string {
  const data = randomBytes(bytes);
  let out = "";
  for (let i = 0; i + 2 < data.length; i += 3) {
    const n = ((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0);
    out +=
      ALPHABET.charAt(n >> 18) +
      ALPHABET.charAt((n >> 12) & 63) +
      ALPHABET.charAt((n >> 6) & 63) +
      ALPHABET.charAt(n & 63);
  }
  return out;
}

/** Base 62 in ASCII order: a fixed-width number in these digits sorts as text the way it sorts as a number. */
const SORTABLE_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `value` (a whole number ≥ 0, taken modulo 62^width) as `width` base-62 digits in ASCII order, so that
 * such prefixes sort as text the way their values sort as numbers — the time prefix of question ids and
 * action tokens, which makes a store's indexes on them grow at one end instead of at random places.
 */
export function sortableDigits(value: number, width: number): string {
  let rest = Math.max(0, Math.floor(value)) % 62 ** width;
  let digits = "";
  for (let i = 0; i < width; i++) {
    digits = SORTABLE_DIGITS.charAt(rest % 62) + digits;
    rest = Math.floor(rest / 62);
  }
  return digits;
}
