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
