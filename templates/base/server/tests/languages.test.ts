import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { negotiateLocale } from '../src/kernel/i18n/locales.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { jar } from './helpers/cookies.js'
import { PASSWORD, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const GERMAN = 'de-DE,de;q=0.9,en;q=0.8'

describe('languages', () => {
  it('a German registrant gets German mail and messages, then English once the profile says so', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: true } })
    const mail = await t.mailServer()
    const email = uniqueEmail('greta')
    const german = (req: supertest.Test) => req.set('Accept-Language', GERMAN)

    const mailed = mail.next(mailTo(email))
    const registered = await german(supertest(app).post('/api/auth/register')).send({ name: 'Greta', email, password: PASSWORD }).expect(202)
    expect(registered.body.message).toMatch(/^Danke für deine Registrierung/)
    const verification = await mailed
    expect(verification.subject).toBe('Bestätige deine E-Mail-Adresse')
    // The registration's name is the registrant's text, maybe not the mailbox owner's: no name.
    expect(verification.body).toContain('Hallo,')
    expect(verification.body).toContain('Der Link läuft in 24 Stunden ab.')
    expect(verification.body).toContain('>E-Mail-Adresse bestätigen</a>')

    const link = linkIn(verification, 'verify-email')
    const verified = await german(supertest(app).post('/api/auth/verify-email')).send({ email: link.email, token: link.token }).expect(200)
    expect(verified.body.message).toBe('Deine E-Mail-Adresse ist bestätigt.')
    expect(verified.body.user.locale).toBeNull()

    const login = await german(supertest(app).post('/api/auth/login')).send({ email, password: PASSWORD }).expect(200)
    const cookies = jar(login)
    const profile = (body: object) => german(supertest(app).patch('/api/account/profile').set(withCookies(cookies))).send(body)

    const mistake = await profile({ name: '' }).expect(422)
    expect(mistake.body).toEqual({ message: 'Das Feld „Name“ ist erforderlich.', errors: { name: ['Das Feld „Name“ ist erforderlich.'] } })
    const badLocale = await profile({ locale: 'fr' }).expect(422)
    expect(badLocale.body.errors).toEqual({ locale: ['Die Sprache muss en, de oder null sein.'] })

    const switched = await profile({ locale: 'en' }).expect(200)
    expect(switched.body.user).toMatchObject({ name: 'Greta', locale: 'en' })
    const me = await german(supertest(app).get('/api/auth/me').set(withCookies(cookies))).expect(200)
    expect(me.body.user.locale).toBe('en')

    // The browser still asks for German; the account's choice wins, for answers and for mail.
    const after = await profile({ name: '' }).expect(422)
    expect(after.body.message).toBe('The name field is required.')
    const notice = mail.next(mailTo(email))
    const changed = await german(supertest(app).put('/api/account/password').set(withCookies(cookies))).send({ current_password: PASSWORD, password: 'ein neues Passwort 1' }).expect(200)
    expect(changed.body.message).toBe('Your password has been changed. Your other sessions were signed out.')
    expect((await notice).subject).toBe('Your password was changed')

    // null follows the browser again.
    expect((await profile({ locale: null }).expect(200)).body.user.locale).toBeNull()
    expect((await profile({ name: '' }).expect(422)).body.message).toBe('Das Feld „Name“ ist erforderlich.')
  })

  it('answers a signed-out request in the Accept-Language it prefers most, else English', async () => {
    const { app } = await t.build()
    const unauthenticated = (language?: string) => {
      const req = supertest(app).get('/api/auth/me')
      return (language === undefined ? req : req.set('Accept-Language', language)).expect(401).then((res) => res.body.message as string)
    }
    expect(await unauthenticated('de')).toBe('Nicht angemeldet.')
    expect(await unauthenticated()).toBe('Unauthenticated.')
    expect(await unauthenticated('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7')).toBe('Unauthenticated.')
    const invalid = await supertest(app).post('/api/auth/register').set('Accept-Language', 'de').send({ email: 'nope' }).expect(422)
    expect(invalid.body).toEqual({
      message: 'Das Feld „Name“ ist erforderlich. (und 2 weitere Fehler)',
      errors: {
        name: ['Das Feld „Name“ ist erforderlich.'],
        email: ['Das Feld „E-Mail-Adresse“ muss eine gültige E-Mail-Adresse sein.'],
        password: ['Das Feld „Passwort“ ist erforderlich.'],
      },
    })
    expect(negotiateLocale('fr-CH, fr;q=0.9, de;q=0.8, en;q=0.7')).toBe('de')
    expect(negotiateLocale('en;q=0.5, de-AT')).toBe('de')
    expect(negotiateLocale('*, en;q=0')).toBe('de')
    expect(negotiateLocale('de;q=0, *;q=0.5')).toBe('en')
    expect(negotiateLocale('fr, ja')).toBe('en')
    expect(negotiateLocale('de;q=abc, ;;, en;q=2')).toBe('en')
  })
})
