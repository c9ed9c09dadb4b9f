// A stand-in push service on 127.0.0.1, as a browser's (FCM, Mozilla's autopush) would be: it
// accepts a push only with a valid VAPID JWT (RFC 8292: ES256 over the header and claims, signed by
// the key in `k`, `aud` its own origin, `exp` within 24 h) and decrypts the aes128gcm body (RFC
// 8291) with the subscriber's private key, as the browser would. Written from the RFCs, apart from
// src/features/push, so the two can't share a mistake.
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from "node:crypto";

export interface Received {
  path: string;
  payload: unknown;
  ttl: string | null;
}

export interface PushService {
  url: string;
  /** A subscription for this service, as a browser's PushSubscription.toJSON() gives it. */
  subscription(name: string): { endpoint: string; keys: { p256dh: string; auth: string } };
  received: Received[];
  /** Pushes refused, and why. */
  refused: string[];
  /** Answer this status for pushes to `name` (410: the subscription is gone). */
  answer(name: string, status: number): void;
  stop(): void;
}

const hmac = (key: Uint8Array, data: Uint8Array) => createHmac("sha256", key).update(data).digest();

function checkVapid(auth: string | null, origin: string): string | undefined {
  const m = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(auth ?? "");
  if (!m) return `Authorization is not "vapid t=…, k=…": ${auth}`;
  const [, h, c, s, k] = m as unknown as string[];
  const point = Buffer.from(k!, "base64url");
  if (point.length !== 65 || point[0] !== 4) return "k is not an uncompressed P-256 key";
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
  if (!verify("sha256", Buffer.from(`${h}.${c}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(s!, "base64url"))) return "bad JWT signature";
  const header = JSON.parse(Buffer.from(h!, "base64url").toString());
  if (header.alg !== "ES256") return `alg ${header.alg}`;
  const claims = JSON.parse(Buffer.from(c!, "base64url").toString());
  if (claims.aud !== origin) return `aud ${claims.aud}, not ${origin}`;
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) return `exp ${claims.exp}`;
  if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub)) return `sub ${claims.sub}`;
  return undefined;
}

function decrypt(body: Buffer, ua: ReturnType<typeof createECDH>, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length > rs) throw new Error("more than one record");
  const secret = ua.computeSecret(asPublic);
  const ikm = hmac(hmac(auth, secret), Buffer.concat([Buffer.from("WebPush: info\0"), ua.getPublicKey(), asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const d = createDecipheriv("aes-128-gcm", cek, nonce);
  d.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([d.update(record.subarray(0, record.length - 16)), d.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--; // padding
  if (plain[end] !== 2) throw new Error("no last-record delimiter");
  return plain.subarray(0, end);
}

export function startPushService(): PushService {
  const subscribers = new Map<string, { ua: ReturnType<typeof createECDH>; auth: Buffer }>();
  const statuses = new Map<string, number>();
  const received: Received[] = [];
  const refused: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const name = url.pathname.replace(/^\/push\//, "");
      const sub = subscribers.get(name);
      const refuse = (why: string, status = 400) => (refused.push(why), new Response(why, { status }));
      if (req.method !== "POST" || !sub) return refuse(`no subscription ${url.pathname}`, 404);
      const bad = checkVapid(req.headers.get("authorization"), url.origin);
      if (bad) return refuse(bad, 401);
      if (req.headers.get("content-encoding") !== "aes128gcm") return refuse(`Content-Encoding ${req.headers.get("content-encoding")}`);
      if (!req.headers.get("ttl")) return refuse("no TTL");
      let payload: unknown;
      try {
        payload = JSON.parse(decrypt(Buffer.from(await req.arrayBuffer()), sub.ua, sub.auth).toString());
      } catch (e) {
        return refuse(`can't decrypt: ${(e as Error).message}`);
      }
      const status = statuses.get(name) ?? 201;
      if (status === 201) received.push({ path: url.pathname, payload, ttl: req.headers.get("ttl") });
      return new Response(null, { status });
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    received,
    refused,
    subscription(name) {
      const ua = createECDH("prime256v1");
      ua.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(name, { ua, auth });
      return { endpoint: `${url}/push/${name}`, keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
    },
    answer(name, status) {
      statuses.set(name, status);
    },
    stop() {
      server.stop(true);
    },
  };
}
