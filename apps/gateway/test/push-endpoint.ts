import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

/**
 * A push service on 127.0.0.1 for the server half of Web Push: it is a browser's subscription (its own
 * P-256 key pair and auth secret, made here with node:crypto), it receives the gateway's POSTs, checks
 * the VAPID signature and decrypts each aes128gcm body by hand (RFC 8188 / RFC 8291) — not with the
 * library the gateway encrypts with.
 */

/** One push the endpoint received. */
export interface ReceivedPush {
  headers: Record<string, string | string[] | undefined>;
  /** The decrypted payload, parsed as JSON. */
  payload: Record<string, unknown>;
  /** The VAPID JWT's claims (its ES256 signature verified with the key in `k=`). */
  claims: { aud: string; exp: number; sub: string };
  /** The VAPID public key the push was signed with (`k=` of the Authorization header). */
  vapidKey: string;
}

export interface PushEndpoint {
  /** The browser's `PushSubscription.toJSON()`. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  received: ReceivedPush[];
  /** Requests that could not be read (a bad signature, a body that does not decrypt): what was wrong. */
  failures: string[];
  /** The status the endpoint answers with next (201 by default, as push services do). */
  status: number;
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync("sha256", ikm, salt, info, length));
}

/** RFC 8291 §3.4 and RFC 8188 §2: one record, padding delimiter 0x02. */
export function decryptAes128gcm(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20] ?? 0;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), serverKey]);
  const ikm = hkdf(auth, ecdhSecret, keyInfo, 32);
  const key = hkdf(salt, ikm, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(salt, ikm, Buffer.from("Content-Encoding: nonce\0"), 12);
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record padding delimiter");
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292): the claims, signed by that key. */
function readVapid(header: string | undefined): { claims: ReceivedPush["claims"]; key: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [head, claims, signature] = match[1].split(".");
  if (!head || !claims || !signature) throw new Error("the VAPID token is not a JWT");
  const raw = Buffer.from(match[2], "base64url");
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: raw.subarray(1, 33).toString("base64url"),
    y: raw.subarray(33, 65).toString("base64url"),
  };
  const ok = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!ok) throw new Error("the VAPID signature does not verify");
  return { claims: JSON.parse(Buffer.from(claims, "base64url").toString()), key: match[2] };
}

/** Starts a push endpoint on 127.0.0.1 (closed after the test). */
export async function pushEndpoint(): Promise<PushEndpoint> {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const state = { received: [] as ReceivedPush[], failures: [] as string[], status: 201 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
        const { claims, key } = readVapid(req.headers.authorization);
        const payload = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), ecdh, auth).toString("utf8"));
        state.received.push({ headers: req.headers, payload, claims, vapidKey: key });
      } catch (error) {
        state.failures.push((error as Error).message);
      }
      res.writeHead(state.status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint: PushEndpoint = {
    subscription: {
      endpoint: `http://127.0.0.1:${port}/push/${randomBytes(8).toString("hex")}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    },
    received: state.received,
    failures: state.failures,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
  };
  return endpoint;
}
