// The VAPID key pair (RFC 8292) that identifies this ws to push services: made once, kept in
// <state>/ws/push/vapid.json (0600), and the ES256 JWT each push carries, signed with it.
import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { type Env, pushDir, readJsonFile, writeJsonFile } from "./store";

interface StoredKeys {
  /** The public key, uncompressed P-256 point, base64url: what a page gives pushManager.subscribe. */
  publicKey: string;
  /** The private key as a JWK. */
  privateJwk: { kty: "EC"; crv: "P-256"; x: string; y: string; d: string };
}

export interface VapidKeys {
  publicKey: string;
  privateKey: KeyObject;
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");

function valid(v: unknown): v is StoredKeys {
  const k = v as StoredKeys | undefined;
  return typeof k?.publicKey === "string" && k.privateJwk?.kty === "EC" && k.privateJwk.crv === "P-256" && typeof k.privateJwk.d === "string";
}

/** This ws's VAPID keys, made and kept the first time they are asked for. */
export function vapidKeys(env: Env = process.env): VapidKeys {
  let stored = readJsonFile(`${pushDir(env)}/vapid.json`);
  if (!valid(stored)) {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const jwk = privateKey.export({ format: "jwk" }) as StoredKeys["privateJwk"];
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]);
    stored = { publicKey: b64url(point), privateJwk: { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, d: jwk.d } };
    writeJsonFile(env, "vapid.json", stored);
  }
  const s = stored as StoredKeys;
  return { publicKey: s.publicKey, privateKey: createPrivateKey({ key: s.privateJwk, format: "jwk" }) };
}

/** The public key a page subscribes with (`applicationServerKey`), base64url. */
export function vapidPublicKey(env: Env = process.env): string {
  return vapidKeys(env).publicKey;
}

/** The `Authorization` header for a push to `endpoint`: `vapid t=JWT, k=KEY` (RFC 8292 §3). */
export function vapidAuthorization(endpoint: string, keys: VapidKeys, subject: string, now = Date.now()): string {
  const header = b64url(JSON.stringify({ typ: "JWT", alg: "ES256" }));
  // At most 24 hours ahead (the RFC's limit); 12 leaves room for a clock that runs ahead.
  const claims = b64url(JSON.stringify({ aud: new URL(endpoint).origin, exp: Math.floor(now / 1000) + 12 * 3600, sub: subject }));
  const signature = sign("sha256", Buffer.from(`${header}.${claims}`), { key: keys.privateKey, dsaEncoding: "ieee-p1363" });
  return `vapid t=${header}.${claims}.${b64url(signature)}, k=${keys.publicKey}`;
}
