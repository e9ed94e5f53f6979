import { createSecretKey, type KeyObject } from 'node:crypto'
import type { Env } from '../config/env.js'

export interface TokenKeys {
  access: KeyObject
  refresh: KeyObject
  /** Signs and checks the cookies (kernel/auth/cookies.ts). */
  cookie: KeyObject
}

/**
 * Built once at start-up. Handed a string, jsonwebtoken first tries to parse it as a PEM public
 * key and only builds a secret key from the thrown exception, on every single verify: that
 * costs ~50x the HMAC itself and capped the authentication middleware at ~2,000 requests/s.
 */
export function createTokenKeys(env: Pick<Env, 'JWT_ACCESS_SECRET' | 'JWT_REFRESH_SECRET' | 'COOKIE_SECRET'>): TokenKeys {
  return {
    access: createSecretKey(Buffer.from(env.JWT_ACCESS_SECRET, 'utf8')),
    refresh: createSecretKey(Buffer.from(env.JWT_REFRESH_SECRET, 'utf8')),
    cookie: createSecretKey(Buffer.from(env.COOKIE_SECRET, 'utf8')),
  }
}
