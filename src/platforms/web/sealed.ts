import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Values the server gives the browser to keep and hand back (cookies): sealed with AES-256-GCM, so the
 * browser can neither read nor change them, and each kind (`purpose`) cannot stand for another. The key
 * comes from WEB_SESSION_SECRET, so every replica opens what any other sealed; without it, from a secret the
 * bot generated and keeps in its store (see web-auth.ts), else a random key per process start.
 */
export interface Sealer {
  /** `payload` sealed for `purpose`, valid for `ttlSeconds`. */
  seal(purpose: string, payload: Record<string, unknown>, ttlSeconds: number): string;
  /** The payload sealed for `purpose`, or undefined when `value` is forged, altered, of another purpose or expired. */
  open(purpose: string, value: string | undefined): Record<string, unknown> | undefined;
  /** Keys it by `secret` from now on (a kept secret read at start, before anything was sealed). */
  useSecret(secret: string): void;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealer keyed by `secret` (any length; derived with HKDF), or by a random key when there is none. */
export function createSealer(secret: string | undefined, now: () => number = Date.now): Sealer {
  const derive = (from: string) =>
    Buffer.from(hkdfSync('sha256', from, 'thinkthread', 'web chat cookies v1', 32));
  let key = secret ? derive(secret) : randomBytes(32);
  return {
    useSecret(kept) {
      key = derive(kept);
    },
    seal(purpose, payload, ttlSeconds) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = JSON.stringify({ ...payload, exp: Math.floor(now() / 1000) + ttlSeconds });
      const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    open(purpose, value) {
      if (!value || value.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
      const raw = Buffer.from(value, 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const body = Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]);
        const payload = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now()) return undefined;
        return payload;
      } catch {
        return undefined;
      }
    },
  };
}
