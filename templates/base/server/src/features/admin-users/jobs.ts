import { formatUntil, inForce, jobDispatcher, mailLocale, suspendedMessage, translator, User, type JobDeps, type Locale } from '../../kernel/index.js'

/**
 * The mail of a suspension, to the suspended user: why, and until when. It reads the account as
 * it is when it goes out, so a suspension lifted meanwhile mails nothing.
 */
export const adminUserJobs = ({ mailer }: JobDeps) => ({
  async 'user:suspended'({ userId, locale }: { userId: number; locale?: Locale }) {
    const user = await User.findByPk(userId, { attributes: ['email', 'name', 'locale', 'suspendedAt', 'suspendedUntil', 'suspensionReason'] })
    if (!user || !inForce(user)) return
    const language = mailLocale(user.locale, locale)
    const until = user.suspendedUntil === null ? null : formatUntil(user.suspendedUntil, language)
    await mailer.send(suspendedMessage(translator(language), user.email, user.name, until, user.suspensionReason ?? ''))
  },
})

export const dispatchAdminUserJob = jobDispatcher(adminUserJobs)
