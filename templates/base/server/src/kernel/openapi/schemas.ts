import { z } from 'zod'

// The bodies the API answers with, as zod schemas: the document's responses are generated from
// them (the requests' come from the controllers' own schemas).

const timestamp = z.iso.datetime({ offset: true })

/** Every error's body: a message, and per-field messages keyed by dotted path. */
export const errorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
})

export const messageBody = z.object({ message: z.string() })

/** A user in any answer; feature layers add fields of their own, so more keys are allowed. */
export const userJson = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  roleId: z.number().int().nullable(),
  role: z.string().nullable(),
  emailVerifiedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
})

export const userBody = z.object({ user: userJson })

/** `GET /api/auth/me`: the user, and the admin signed in as them (impersonation), else null. */
export const meBody = z.object({ user: userJson, impersonator: z.object({ id: z.number().int(), name: z.string() }).nullable() })

/** A user as the admins' API shows it: with its suspension, all null when none is in force. */
export const adminUserJson = userJson.extend({
  suspendedAt: timestamp.nullable(),
  suspendedUntil: timestamp.nullable(),
  suspensionReason: z.string().nullable(),
})

/** A sign-in's answer: the user and the access token (also set as a cookie). */
export const signedInBody = z.object({ user: userJson, access_token: z.string(), refresh_token: z.string().optional() })

/** The paginated object every list answers with, under `data`. */
export const paginatedBody = <T extends z.ZodType>(row: T) =>
  z.object({
    data: z.object({
      data: z.array(row),
      current_page: z.number().int(),
      last_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
      path: z.string(),
      from: z.number().int().nullable(),
      to: z.number().int().nullable(),
    }),
  })

export const sessionJson = z.object({
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: timestamp,
  lastUsedAt: timestamp,
  expiresAt: timestamp,
  remember: z.boolean(),
  impersonatorId: z.number().int().optional().describe("Only on an admin's session as this user (impersonation): that admin's id."),
})

export const activityJson = z.object({
  id: z.number().int(),
  type: z.string(),
  ip: z.string().nullable(),
  device: z.string(),
  createdAt: timestamp,
  current: z.boolean(),
  impersonatorId: z.number().int().nullable(),
})

export { timestamp }
