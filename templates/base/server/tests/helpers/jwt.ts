import { createHmac } from 'node:crypto'

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header = '', payload = ''] = token.split('.')
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
  }
}

/** Builds a JWT by hand: any algorithm header, any claims, signed with any secret (or none). */
export function forgeJwt(alg: 'none' | 'HS256' | 'HS384' | 'HS512', payload: Record<string, unknown>, secret?: string): string {
  const body = `${b64({ alg, typ: 'JWT' })}.${b64(payload)}`
  if (alg === 'none' || secret === undefined) return `${body}.`
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg]
  return `${body}.${createHmac(hash, secret).update(body).digest('base64url')}`
}

/** The same token with its payload edited and the original signature kept. */
export function tamperPayload(token: string, edit: (payload: Record<string, unknown>) => void): string {
  const [header, , signature] = token.split('.')
  const { payload } = decodeJwt(token)
  edit(payload)
  return `${header}.${b64(payload)}.${signature}`
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)
