import type { RequestHandler } from 'express'
import { z } from 'zod'
import { notFound, validate } from '../../../kernel/index.js'
import { findOwnPasskey } from '../services/passkey-rows.js'
import { passkeyJson } from '../services/passkey-json.js'
import { passkeyNameField } from '../services/fields.js'

export const renamePasskeySchema = z.object({ name: passkeyNameField })

/** A label only: no credential changes, so no event. */
export function renamePasskey(): RequestHandler {
  return async (req, res) => {
    const { name } = validate(renamePasskeySchema, req.body)
    const passkey = await findOwnPasskey(req.auth!.id, String(req.params.id))
    if (!passkey) throw notFound()
    await passkey.update({ name })
    res.json({ passkey: passkeyJson(passkey) })
  }
}
