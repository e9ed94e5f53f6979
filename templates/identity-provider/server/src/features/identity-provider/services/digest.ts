import { createHash } from 'node:crypto'

/** SHA-256, hex: how a code, a token, a user code or a client secret is kept. */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')
