import { findUserByEmail, issueResetLink, linksVoidedSince, linkWithToken, mailLocale, resetPasswordMessage, security, translator, type BaseJobHandlers, type JobDeps } from '../../kernel/index.js'

/** The work behind forgot-password, which answers the same for every address: only here is the account looked up. */
export const signInJobs = ({ env, mailer }: JobDeps): Pick<BaseJobHandlers, 'user:reset-password'> => ({
  async 'user:reset-password'({ email, eventsUpTo, locale }) {
    const user = await findUserByEmail(email)
    if (!user) return
    // A revoking event since the request voided every link it could have had.
    if (eventsUpTo !== undefined && (await linksVoidedSince(user.id, eventsUpTo))) return
    const token = await issueResetLink(user)
    const url = linkWithToken(env.BASE_URL, 'reset-password', token, user.email)
    await mailer.send(resetPasswordMessage(translator(mailLocale(user.locale, locale)), user.email, user.name, url, security.passwordResetExpirySeconds / 60))
  },
})
