import type { RequestHandler } from 'express'
import { z } from 'zod'
import { events, fieldError, findUserById, idField, keepingAnAdmin, msg, notFound, recordCredentialEvent, requestLocale, serializeUser, suspensionJsonOf, validate, type AppContext, type User } from '../../../kernel/index.js'
import { dispatchAdminUserJob } from '../jobs.js'

const REASON_MAX = 500

export const suspendSchema = z.object({
  reason: z
    .string({ error: msg('validation.required', { field: 'reason' }) })
    .trim()
    .min(1, msg('validation.required', { field: 'reason' }))
    .max(REASON_MAX, msg('validation.tooLong', { field: 'reason', max: REASON_MAX })),
  // An instant with its offset, or a day (its start, UTC); none: until an admin lifts it.
  until: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: msg('validation.date', { field: 'until' }) })
    .nullish()
    .transform((value) => (value ? new Date(value) : null))
    .refine((value) => value === null || value.getTime() > Date.now(), 'users.untilPast'),
})

/** The user as the admins' API shows it: with its suspension. */
export const adminUserJson = (user: User) => ({ ...serializeUser(user), ...suspensionJsonOf(user) })

export async function targetOf(id: unknown): Promise<User> {
  const parsed = idField.safeParse(id)
  const user = parsed.success ? await findUserById(parsed.data) : null
  if (!user) throw notFound()
  return user
}

/**
 * Suspends a user at once: every session, refresh token, key and grant ends through the security
 * core (a revoking event, as "sign out everywhere"), sign-in is refused until `until` (or until
 * lifted), and the user is mailed why. Never oneself, and never the last admin who can sign in.
 */
export function suspendUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const user = await targetOf(req.params.id)
    const input = validate(suspendSchema, req.body)
    if (user.id === req.auth!.id) throw fieldError('id', 'users.suspendSelf')
    const suspension = { suspendedAt: new Date(), suspendedUntil: input.until, suspensionReason: input.reason }
    await keepingAnAdmin(async (transaction) => {
      await recordCredentialEvent(ctx, events.userSuspended, user.id, {
        req,
        revoke: 'all',
        userChanged: true,
        meta: { by: req.auth!.id, until: input.until?.toISOString() ?? null, reason: input.reason },
        transaction,
        change: () => user.update(suspension, { transaction }),
      })
      await dispatchAdminUserJob(ctx.queue, 'user:suspended', { userId: user.id, locale: requestLocale(req) }, transaction)
    }, 'id', 'users.suspendLastAdmin')
    res.json({ user: adminUserJson((await findUserById(user.id)) ?? user) })
  }
}

/** Lifts a suspension (one in force or not: the answer is the same user, unsuspended). */
export function unsuspendUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const user = await targetOf(req.params.id)
    if (user.suspendedAt !== null) {
      await recordCredentialEvent(ctx, events.userUnsuspended, user.id, {
        req,
        userChanged: true,
        meta: { by: req.auth!.id },
        change: (transaction) => user.update({ suspendedAt: null, suspendedUntil: null, suspensionReason: null }, { transaction }),
      })
    }
    res.json({ user: adminUserJson((await findUserById(user.id)) ?? user) })
  }
}
