import { envOf, findUserByEmail, greeting, jobDispatcher, linksVoidedSince, type JobDeps, type Locale, mailLocale, message, translator, User } from '../../kernel/index.js'
import { config } from './config.js'
import { issueConfirmCode } from './services/confirm-codes.js'
import { issueSignIn } from './services/sign-ins.js'
import { emailSignIn } from './settings.js'

/**
 * The work behind the sign-in request, which answers the same for every address: only here is
 * the account looked up and the link and code minted, so the request never waits for the mail
 * and no job carries a token.
 */
export const passwordlessJobs = ({ env, mailer }: JobDeps) => ({
  async 'passwordless:sign-in'({ email, bindingHash, remember, eventsUpTo, locale }: { email: string; bindingHash: string; remember: boolean; eventsUpTo: number; locale?: Locale }) {
    const user = await findUserByEmail(email)
    // A revoking event since the request voided every link it could have had.
    if (user && (await linksVoidedSince(user.id, eventsUpTo))) return
    if (!user && !envOf(config, env).PASSWORDLESS_SIGN_UP) return
    const { token, code } = await issueSignIn(env.COOKIE_SECRET, { email, userId: user?.id ?? null, bindingHash, remember })
    const t = translator(mailLocale(user?.locale ?? null, locale))
    const minutes = emailSignIn.lifeSeconds / 60
    const url = `${env.BASE_URL}/login/email?${new URLSearchParams({ token }).toString()}`
    // An address without an account is greeted by nobody's name, as a registration's mail is.
    await mailer.send(
      message(
        email,
        t(user ? 'passwordlessMail.subject' : 'passwordlessMail.subjectSignUp'),
        [greeting(t, user?.name ?? null), t(user ? 'passwordlessMail.body' : 'passwordlessMail.bodySignUp', { minutes }), t('passwordlessMail.code', { code }), t('passwordlessMail.ignore')],
        { label: t(user ? 'passwordlessMail.action' : 'passwordlessMail.actionSignUp'), url },
      ),
    )
  },
  /** A code to confirm it's you, for the session that asked (its id; the code is minted here). */
  async 'passwordless:confirm-code'({ userId, sessionId, locale }: { userId: number; sessionId: string; locale?: Locale }) {
    const user = await User.findByPk(userId)
    if (!user) return
    const code = await issueConfirmCode(env.COOKIE_SECRET, userId, sessionId)
    const t = translator(mailLocale(user.locale, locale))
    await mailer.send(
      message(user.email, t('passwordlessMail.confirmSubject'), [
        greeting(t, user.name),
        t('passwordlessMail.confirmBody', { minutes: emailSignIn.confirmLifeSeconds / 60 }),
        t('passwordlessMail.code', { code }),
        t('passwordlessMail.confirmIgnore'),
      ]),
    )
  },
})

/** Queues the layer's jobs, each with the payload its handler above takes. */
export const dispatchPasswordlessJob = jobDispatcher(passwordlessJobs)
