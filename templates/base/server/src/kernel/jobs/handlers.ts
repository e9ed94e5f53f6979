import { security } from '../config/security.js'
import { linkWithToken, resetPasswordMessage } from '../mail/messages.js'
import { mailEmailChange } from '../services/email-change.js'
import { pruneAbandonedAccounts, registerAddress, resendVerificationLink } from '../services/email-verification.js'
import { issueResetLink } from '../services/password-reset.js'
import { findUserByEmail } from '../services/users.js'
import { pruneSecurityEvents } from '../security/activity.js'
import { sendSecurityNotice } from '../security/notices.js'
import { linksVoidedSince } from '../security/voided-since.js'
import { webhookDelivery } from '../webhooks/deliver.js'
import { pruneWebhookDeliveries } from '../webhooks/prune.js'
import type { FeatureJobs, JobHandler } from '../feature.js'
import type { BaseJobHandlers, JobDeps, JobHandlers } from './types.js'
import { mailLocale } from '../i18n/locales.js'
import { translator } from '../i18n/translate.js'

/**
 * The work behind register, resend-verification, forgot-password and an e-mail change. The HTTP
 * handlers answer the same for every address; whether an account exists is only decided here.
 */
export function createJobHandlers(deps: JobDeps, features: readonly { jobs?: (deps: JobDeps) => FeatureJobs }[]): JobHandlers {
  const layers: Record<`${string}:${string}`, JobHandler> = {}
  for (const feature of features) Object.assign(layers, feature.jobs?.(deps))
  return { ...baseJobHandlers(deps), ...layers }
}

function baseJobHandlers(deps: JobDeps): BaseJobHandlers {
  const { env, mailer } = deps
  return {
    async 'user:verify-email'(job) {
      if (job.reason === 'register') await registerAddress(deps, job.email, { name: job.name, passwordHash: job.passwordHash }, job.locale)
      else await resendVerificationLink(deps, job.email, job.eventsUpTo, job.locale)
    },

    async 'user:reset-password'({ email, eventsUpTo, locale }) {
      const user = await findUserByEmail(email)
      if (!user) return
      // A revoking event since the request voided every link it could have had.
      if (eventsUpTo !== undefined && (await linksVoidedSince(user.id, eventsUpTo))) return
      const token = await issueResetLink(user)
      const url = linkWithToken(env.BASE_URL, 'reset-password', token, user.email)
      await mailer.send(resetPasswordMessage(translator(mailLocale(user.locale, locale)), user.email, user.name, url, security.passwordResetExpirySeconds / 60))
    },

    async 'user:confirm-email'(job) {
      if ('tokenId' in job) await mailEmailChange(deps, job.tokenId, job.locale)
    },

    async 'user:security-notice'(notice) {
      await sendSecurityNotice(deps, notice)
    },

    async 'security:prune-events'() {
      await pruneSecurityEvents()
      await pruneWebhookDeliveries()
      if (deps.auth.requireEmailVerification) await pruneAbandonedAccounts(deps)
    },

    'webhook:deliver': webhookDelivery({ env, logger: deps.logger, webhooks: deps.webhooks, retry: deps.webhookRetry, breaker: deps.webhookBreaker }),
  }
}
