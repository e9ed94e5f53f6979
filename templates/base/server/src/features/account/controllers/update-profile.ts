import type { RequestHandler } from 'express'
import { z } from 'zod'
import { findUserById, locales, msg, nameField, saveUserChanges, serializeUser, unauthenticated, validate, type AppContext } from '../../../kernel/index.js'

/** A language the app ships, or null to follow the browser's again. */
const localeField = z.enum(locales, { error: msg('validation.locale', { locales: locales.join(', ') }) }).nullable()

/** `{name}`, `{locale}` or both; a body with neither asks for the name, as the profile form has always done. */
export const updateProfileSchema = z
  .object({ name: nameField.optional(), locale: localeField.optional() })
  .refine((input) => input.name !== undefined || input.locale !== undefined, { error: msg('validation.required', { field: 'name' }), path: ['name'] })

export function updateProfile(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { name, locale } = validate(updateProfileSchema, req.body)
    const user = await findUserById(req.auth!.id)
    if (!user) throw unauthenticated()
    await saveUserChanges(ctx, user, { ...(name === undefined ? {} : { name }), ...(locale === undefined ? {} : { locale }) })
    // This answer already speaks the new language, as every request after it will.
    if (locale !== undefined) req.userLocale = locale
    res.json({ user: serializeUser(user) })
  }
}
