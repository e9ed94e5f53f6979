import type { Express } from 'express'
import supertest from 'supertest'
import { jar } from './cookies.js'
import { type MailServer, mailTo, type ReceivedMail } from './mail.js'
import { withCookies } from './test-app.js'

/** What a sign-in mail holds: the link's token (and the link) and the code. */
export interface SignInMail {
  url: string
  token: string
  code: string
  mail: ReceivedMail
}

/** The link and the code of a sign-in mail, as the reader sees them. */
export function signInMailOf(mail: ReceivedMail): SignInMail {
  const link = /(https?:\/\/[^\s"<]+\/login\/email\?token=([A-Za-z0-9_-]+))/.exec(mail.body)
  const code = /:\s*(\d{6})\b/.exec(mail.body)
  if (!link || !code) throw new Error(`No sign-in link and code in:\n${mail.body}`)
  return { url: link[1]!, token: link[2]!, code: code[1]!, mail }
}

/** The calls of the sign-in by e-mail, each with a browser's cookie jar. */
export const emailSignInApi = (app: Express) => ({
  ask: (body: object, cookies: Record<string, string> = {}) => supertest(app).post('/api/auth/email-sign-in').set(withCookies(cookies)).send(body),
  verify: (body: object, cookies: Record<string, string> = {}) => supertest(app).post('/api/auth/email-sign-in/verify').set(withCookies(cookies)).send(body),
  approve: (body: object, cookies: Record<string, string> = {}) => supertest(app).post('/api/auth/email-sign-in/approve').set(withCookies(cookies)).send(body),
  status: (cookies: Record<string, string>) => supertest(app).post('/api/auth/email-sign-in/status').set(withCookies(cookies)),
})

/**
 * Asks for a sign-in mail as a browser would and waits for it: the browser's cookies (its
 * binding) and what the mail holds.
 */
export async function askForMail(app: Express, mail: MailServer, email: string, options: { remember?: boolean; cookies?: Record<string, string>; language?: string } = {}) {
  // Not a notice mailed to the same address meanwhile.
  const waiting = mail.next((received) => mailTo(email)(received) && received.body.includes('/login/email?token='))
  let request = supertest(app).post('/api/auth/email-sign-in').set(withCookies(options.cookies ?? {}))
  if (options.language) request = request.set('Accept-Language', options.language)
  const res = await request.send({ email, ...(options.remember === undefined ? {} : { remember: options.remember }) })
  if (res.status !== 202) throw new Error(`email-sign-in: ${res.status} ${JSON.stringify(res.body)}`)
  return { res, cookies: jar(res, options.cookies), ...signInMailOf(await waiting) }
}
