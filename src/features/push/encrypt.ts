// A push message's body, encrypted for one subscription as RFC 8291 says (aes128gcm content
// coding, RFC 8188): only the browser that subscribed can read it, not the push service.
import { createCipheriv, createECDH, createHmac, randomBytes } from "node:crypto";

const hmac = (key: Uint8Array, data: Uint8Array) => createHmac("sha256", key).update(data).digest();
const text = (s: string) => Buffer.from(s, "latin1");

/** The record size written in the header: one record holds any payload ws sends (≤ 3 KiB). */
const RECORD_SIZE = 4096;

/**
 * `p256dh`: the subscription's public key (65 bytes, uncompressed); `auth`: its 16-byte secret.
 * Returns salt ‖ rs ‖ idlen ‖ keyid ‖ ciphertext, one record, as the push service wants it.
 */
export function encryptPayload(payload: Uint8Array, p256dh: Uint8Array, auth: Uint8Array, salt: Uint8Array = randomBytes(16)): Buffer {
  if (payload.length > RECORD_SIZE - 17) throw new Error(`a push payload is at most ${RECORD_SIZE - 17} bytes`);
  const ecdh = createECDH("prime256v1");
  const asPublic = ecdh.generateKeys();
  const secret = ecdh.computeSecret(p256dh);
  // RFC 8291 §3.4: the input keying material mixes the ECDH secret with the subscription's auth secret.
  const prkKey = hmac(auth, secret);
  const ikm = hmac(prkKey, Buffer.concat([text("WebPush: info\0"), p256dh, asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, text("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, text("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const cipher = createCipheriv("aes-128-gcm", cek, nonce);
  // 0x02: the last (and only) record's delimiter, no padding after it.
  const body = Buffer.concat([cipher.update(Buffer.concat([payload, Buffer.from([2])])), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(21);
  Buffer.from(salt).copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header[20] = asPublic.length;
  return Buffer.concat([header, asPublic, body]);
}
