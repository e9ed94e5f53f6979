import type { Request } from 'express'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { sql } from '../db/sql.js'
import type { UserFields, UserLifecycle } from '../feature.js'
import { unauthenticated } from '../http/errors.js'
import type { AuthIdentity } from '../http/request.js'
import { Role, User, type RoleName } from '../models/index.js'
import { boundUserFields } from '../models/user-fields.js'
import type { WebhookHub } from '../webhooks/hub.js'
import type { SignInUser, UserJson, UserRow } from './user-json.js'
import { isLocale, type Locale } from '../i18n/locales.js'

export type { SignInUser, UserJson, UserRow } from './user-json.js'

/** What the authentication cache keeps per user: the identity of `req.auth` and the body `/me` answers with. */
export interface CachedUser {
  identity: AuthIdentity
  name: string
  /** The language the user chose: the request's messages follow it (kernel/i18n/request-locale.ts). */
  locale: Locale | null
  /** `{"user": …, "impersonator": null}`, serialised once: the answer of every session but an impersonation. */
  meBody: string
}

const ME_HEAD = '{"user":'
const ME_TAIL = ',"impersonator":null}'

/**
 * `/me` of an impersonation: the user as cached, and the admin signed in as them. Only this rare
 * case builds a body; every other session's is the cached one as it is.
 */
export const impersonatedMeBody = (user: CachedUser, impersonator: { id: number; name: string }): string =>
  `${user.meBody.slice(0, -ME_TAIL.length)},"impersonator":${JSON.stringify(impersonator)}}`

/** The only shape in which a user leaves the server: never the password hash. */
export function serializeUser(user: User): UserJson {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    roleId: user.roleId,
    role: user.Role?.name ?? null,
    emailVerifiedAt: user.emailVerifiedAt ? user.emailVerifiedAt.toISOString() : null,
    locale: isLocale(user.locale) ? user.locale : null,
    // The layers' fields before the dates, where a user's JSON has always carried them.
    ...featureFields((fields) => fields.fromModel(user)),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  }
}

/** The feature layers' fields of one user, merged. */
function featureFields(of: (fields: UserFields) => Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = {}
  for (const fields of boundUserFields()) Object.assign(merged, of(fields))
  return merged
}

/**
 * The raw statements of the hot paths (no model hydration), with the columns of a serialised
 * user quoted as kernel/db/sql.ts says; made once for the layers' fields bound with the models.
 */
interface UserStatements {
  columns: string
  byId: (sequelize: Sequelize) => string
  byEmail: (sequelize: Sequelize) => string
}

const statementsFor = new WeakMap<readonly UserFields[], UserStatements>()

function statements(): UserStatements {
  const fields = boundUserFields()
  let made = statementsFor.get(fields)
  if (!made) {
    const columns = ['u.id, u.name, u.email, u."roleId", r.name AS role, u."emailVerifiedAt", u.locale, u."createdAt", u."updatedAt"', ...fields.flatMap((field) => field.columns)].join(', ')
    made = {
      columns,
      byId: sql(`SELECT ${columns} FROM ${USERS_WITH_ROLE} WHERE u.id = $1`),
      byEmail: sql(`SELECT ${columns}, u.password FROM ${USERS_WITH_ROLE} WHERE u.email = $1`),
    }
    statementsFor.set(fields, made)
  }
  return made
}

/** The columns of a serialised user, for raw queries selecting from `users u` joined with `roles r`. */
export const userColumns = (): string => statements().columns

/** SQLite hands dates back as text (`2026-01-02 03:04:05.678 +00:00`), MySQL and PostgreSQL as Date objects. */
const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString()

export function userJsonOf(row: UserRow): UserJson {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roleId: row.roleId,
    role: row.role,
    emailVerifiedAt: row.emailVerifiedAt === null ? null : iso(row.emailVerifiedAt),
    locale: isLocale(row.locale) ? row.locale : null,
    ...featureFields((fields) => fields.fromRow(row)),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  }
}

/** What the access token carries and `req.auth` holds. */
export const identityOf = (user: UserJson): AuthIdentity => ({ id: user.id, email: user.email, roleId: user.roleId, role: user.role })

/** The FROM of the raw single-user queries: `u` with its role `r`. */
const USERS_WITH_ROLE = 'users u LEFT JOIN roles r ON r.id = u."roleId"'


/** One parameterised query; what the authentication cache loads on a miss. */
export async function loadUser(id: number): Promise<CachedUser | undefined> {
  const sequelize = User.sequelize!
  const [row] = await sequelize.query<UserRow>(statements().byId(sequelize), { bind: [id], type: QueryTypes.SELECT })
  if (!row) return undefined
  const json = userJsonOf(row)
  return { identity: identityOf(json), name: json.name, locale: json.locale, meBody: `${ME_HEAD}${JSON.stringify(json)}${ME_TAIL}` }
}


/** The login's lookup in one query without model hydration: the main thread's share of a login is what logins/s lose to bcrypt. */
export async function findSignInUser(email: string): Promise<SignInUser | undefined> {
  const sequelize = User.sequelize!
  const [row] = await sequelize.query<UserRow & { password: string | null }>(statements().byEmail(sequelize), { bind: [email], type: QueryTypes.SELECT })
  if (!row) return undefined
  const json = userJsonOf(row)
  return { passwordHash: row.password, json, identity: identityOf(json) }
}

const withRole = { include: [{ model: Role, as: 'Role' }] }

export const findUserByEmail = (email: string) => User.findOne({ where: { email }, ...withRole })

export const findUserById = (id: number) => User.findByPk(id, withRole)

/** The signed-in user's row, for a route behind authentication (deleted meanwhile: 401). */
export async function signedInUser(req: Request): Promise<User> {
  const user = await User.findByPk(req.auth!.id)
  if (!user) throw unauthenticated()
  return user
}

export async function roleId(name: RoleName): Promise<number> {
  const role = await Role.findOne({ where: { name } })
  if (!role) throw new Error(`The role "${name}" is missing: run the migrations.`)
  return role.id
}

/**
 * Creates a user and reloads it with its role, ready to serialise. Every way an account comes to
 * be goes through here, so the layers' `userCreated` runs for each, in the inserting transaction,
 * and so does `user.created` for the webhooks that take it (given `webhooks`: every path but a
 * test's own users). `within` writes what a caller's slice must have exist only with the account: in
 * the same transaction, after those, so that its failure undoes the account.
 */
export async function createUser(features: UserLifecycle, values: {
  name: string
  email: string
  /** Null: an account without a password. */
  passwordHash: string | null
  role: RoleName
  verified: boolean
}, webhooks?: Pick<WebhookHub, 'emit'>, within?: (user: User, transaction: Transaction) => Promise<void>): Promise<User> {
  const role = await roleId(values.role)
  const user = await User.sequelize!.transaction(async (transaction) => {
    const created = await User.create(
      { name: values.name, email: values.email, password: values.passwordHash, roleId: role, emailVerifiedAt: values.verified ? new Date() : null },
      { transaction },
    )
    for (const feature of features) await feature.userCreated?.(created, transaction)
    const { id, name, email, emailVerifiedAt, createdAt } = created
    const user = { id, name, email, role: values.role, emailVerifiedAt: emailVerifiedAt?.toISOString() ?? null, createdAt: createdAt.toISOString() }
    await webhooks?.emit('user.created', [{ timestamp: createdAt, data: { user } }], transaction)
    await within?.(created, transaction)
    return created
  })
  return (await findUserById(user.id)) ?? user
}
