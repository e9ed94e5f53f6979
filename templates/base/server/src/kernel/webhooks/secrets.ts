import { randomBytes } from 'node:crypto'
import { decrypt, encrypt } from '../security/encryption.js'

/**
 * A new endpoint's signing secret, in the Standard Webhooks form (`whsec_` and 32 random bytes in
 * base64). Shown once, when the endpoint is made; stored sealed with a key derived from
 * COOKIE_SECRET (changing that secret leaves the endpoints unable to sign: make them again).
 */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`

export const sealWebhookSecret = (secret: string, serverSecret: string): string => encrypt(secret, serverSecret, 'webhook-secret')

export const openWebhookSecret = (sealed: string, serverSecret: string): string | null => decrypt(sealed, serverSecret, 'webhook-secret')
