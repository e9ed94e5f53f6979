import type { Request } from 'express'
import type { Transaction } from 'sequelize'
import type { JobQueue } from '../jobs/types.js'
import { SecurityEvent, User } from '../models/index.js'
import type { AuthCache } from '../auth/auth-cache.js'
import { clientOf, deviceOf, revokeSessionRows, type ClientInfo } from '../auth/sessions.js'
import { clearConfirmations } from './confirmation.js'
import { events, type CredentialEventKind } from './events.js'
import { networkOf } from './network.js'
import { voidPendingCredentials, type TokenFeatures } from './credential-tokens.js'
import type { Locale } from '../i18n/locales.js'
import { requestLocale } from '../i18n/request-locale.js'
import type { WebhookHub } from '../webhooks/hub.js'

/** Where an event came from, as its row records it: the client, its device string and network. */
export interface EventOrigin extends ClientInfo {
  device: string
  network: string | null
}

export const originOf = (client: ClientInfo): EventOrigin => ({ ...client, device: deviceOf(client.userAgent), network: networkOf(client.ip) })

/** Which sessions an event ends: every one, every one but the requesting one, one, or those a way to sign in started. */
export type Revocation = 'all' | { except: string | undefined } | { only: string } | { signedInWith: string }

export interface CredentialEventOptions {
  /**
   * The request that raised the event: its address, device and session, on the rows of the
   * signed-in requester (or of anyone, for a request nobody is signed in to: a sign-in, a reset).
   */
  req?: Request
  /** Where it came from, when there is no request to read it from (or the caller has already worked it out). */
  origin?: EventOrigin
  /** The session the event belongs to (default: the request's): its events are `current` on the activity page. */
  sessionId?: string
  meta?: Record<string, unknown>
  revoke?: Revocation
  /** The user's row changed (password, address, role, a second factor): every instance drops its cached copy. */
  userChanged?: boolean
  /** Where the notice goes instead of the account's address (`email_changed`: the old one). */
  noticeTo?: string
  /** The credential change itself, written in the same transaction as the event and what it ends. */
  change?: (transaction: Transaction) => Promise<unknown>
  /** The language of the notice for an account without one of its own (default: the request's). */
  locale?: Locale
  /** A transaction of the caller's to write in (the caches hear of it once it commits). */
  transaction?: Transaction
  /**
   * The admin signed in as the user when it happened (impersonation): default, the request's.
   * Its rows and webhooks name that admin. An event of a request made during an impersonation
   * mails no notice: the user had the one notice, of its start (which names the admin here).
   */
  impersonatorId?: number
}

/** All the core needs of the app's services: it queues notices and webhooks, tells the caches and voids the registered tokens. */
type Deps = {
  queue: Pick<JobQueue, 'dispatch'>
  authCache: Pick<AuthCache, 'sessionsChanged' | 'userChanged'>
  features: TokenFeatures
  webhooks: Pick<WebhookHub, 'catalogue' | 'subscribed' | 'emit'>
}

/**
 * THE way a credential changes hands. Every credential event goes through here, which makes the
 * rules hold for every flow at once instead of each flow remembering them:
 * - the event is recorded in `security_events` (the account's activity, kept 90 days);
 * - an event that ends sessions also voids every pending credential of the user (mailed links,
 *   sign-ins waiting for a second step: kernel/security/credential-tokens.ts), in the same transaction
 *   as the change itself;
 * - the authentication caches of every instance drop what changed, once it is committed;
 * - an event with a notice queues `user:security-notice` through the outbox, in that transaction;
 * - so does an event some webhook endpoint takes (`webhook:deliver`, kernel/webhooks/hub.ts), and
 *   `account_deleted` also makes `user.deleted`.
 * No controller revokes sessions, voids tokens or drops cached users on its own.
 */
export async function recordCredentialEvent(deps: Deps, kind: CredentialEventKind, userIds: number | number[], options: CredentialEventOptions = {}): Promise<void> {
  const users = ([] as number[]).concat(userIds)
  if (users.length === 0) return
  const origin = options.origin ?? originOf(options.req ? clientOf(options.req) : NO_CLIENT)
  // A signed-in requester's address and device are theirs alone: a row of someone they act on
  // (an admin's change to a member, to a user) carries none, nor the requester's session.
  const actor = options.origin ? undefined : options.req?.auth?.id
  const ownedBy = (userId: number) => actor === undefined || userId === actor
  const originFor = (userId: number) => (ownedBy(userId) ? origin : originOf(NO_CLIENT))
  const { revoke } = options
  const locale = options.locale ?? (options.req ? requestLocale(options.req) : undefined)
  const sessionId = options.sessionId ?? options.req?.sessionId ?? null
  const impersonatorId = options.impersonatorId ?? options.req?.impersonatorId ?? null
  const notice = options.req?.impersonatorId === undefined ? kind.notice : undefined
  const rowOf = (userId: number, createdAt: Date) => {
    const from = originFor(userId)
    return {
      type: kind.type,
      userId,
      createdAt,
      sessionId: ownedBy(userId) ? sessionId : (options.sessionId ?? null),
      ip: from.ip,
      userAgent: from.userAgent,
      device: from.device,
      network: from.network,
      meta: options.meta ? JSON.stringify(options.meta) : null,
      revoking: revoke !== undefined,
      impersonatorId,
    }
  }
  const sentAs = deps.webhooks.catalogue.typeOf(kind.type)
  const deletion = kind.type === events.accountDeleted.type
  // Outside a caller's transaction, and known from memory: whether the event must become one
  // transaction with its messages. In a caller's transaction, `emit` looks within it.
  const hooked = !options.transaction && ((await deps.webhooks.subscribed(sentAs)) || (deletion && (await deps.webhooks.subscribed('user.deleted'))))
  const emitting = options.transaction !== undefined || hooked

  const sequelize = SecurityEvent.sequelize!
  const write = async (transaction?: Transaction) => {
    // The users' rows first, in id order: two changes to one user's credentials then take turns
    // (the second sees what the first wrote) instead of deadlocking on InnoDB's gap locks.
    if (transaction) await User.findAll({ attributes: ['id'], where: { id: users }, order: [['id', 'ASC']], lock: transaction.LOCK.UPDATE, transaction })
    // Rows, revocations and voided links come before the change: a deletion of the user then
    // keeps them (userId set to null) as its trail, with its tokens already revoked.
    const createdAt = new Date()
    const noticed = notice ? await Promise.all(users.map((userId) => SecurityEvent.create(rowOf(userId, createdAt), { transaction }))) : []
    if (!notice) await SecurityEvent.bulkCreate(users.map((userId) => rowOf(userId, createdAt)), { transaction })
    if (revoke) {
      await revokeSessionRows(users, { ...scopeOf(revoke), transaction })
      await voidPendingCredentials(deps.features, users, transaction, revoke === 'all' || 'except' in revoke)
      await clearConfirmations(users, transaction)
    }
    await options.change?.(transaction!)
    for (const event of noticed) {
      await deps.queue.dispatch('user:security-notice', { eventId: event.id, ...notice!, ...(options.noticeTo ? { to: options.noticeTo } : {}), ...(locale ? { locale } : {}) }, transaction)
    }
    if (emitting) {
      const meta = options.meta ?? null
      const by = impersonatorId === null ? {} : { impersonatorId }
      await deps.webhooks.emit(sentAs, users.map((userId) => ({ timestamp: createdAt, data: { userId, ip: originFor(userId).ip, device: originFor(userId).device, meta, ...by } })), transaction)
      if (deletion) await deps.webhooks.emit('user.deleted', users.map((id) => ({ timestamp: createdAt, data: { user: { id } } })), transaction)
    }
  }
  const announce = () => {
    if (revoke) deps.authCache.sessionsChanged(users)
    if (options.userChanged) for (const id of users) deps.authCache.userChanged(id)
  }
  if (options.transaction) {
    await write(options.transaction)
    options.transaction.afterCommit(announce)
    return
  }
  // A lone row (a sign-in, a failed one) is one INSERT; anything that must hold together is one transaction.
  if (options.change || revoke || notice || hooked) await sequelize.transaction(write)
  else await write()
  announce()
}

const NO_CLIENT: ClientInfo = { ip: null, userAgent: null }

function scopeOf(revoke: Revocation): { only?: string; except?: string; signedInWith?: string } {
  return revoke === 'all' ? {} : revoke
}
