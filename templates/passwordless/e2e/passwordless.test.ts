import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'
import { mailTo, startMailServer, type MailServer, type ReceivedMail } from '../server/tests/helpers/mail'

// Sign-in by e-mail in Chromium, against a real SMTP server: the link opened in the browser that
// asked, and the code typed on the page that asked.
const person = { name: 'Elle Mail', email: 'elle@example.com', password: 'elle-password-1' }

let mailbox: MailServer
let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const linkIn = (mail: ReceivedMail) => /https?:\/\/\S+\/login\/email\?token=[\w-]+/.exec(mail.body)![0]
const codeIn = (mail: ReceivedMail) => /\b(\d{6})\b/.exec(mail.body)![1]!

beforeAll(async () => {
  mailbox = await startMailServer()
  server = await startAppServer({ smtpUrl: mailbox.url, users: [person] })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await mailbox?.close()
})

/** From the login page to "Check your inbox": the mail that comes of it. */
async function askForMail(): Promise<ReceivedMail> {
  await page.goto(`${server.url}/login`)
  await page.getByRole('link', { name: 'E-mail me a sign-in link' }).click()
  // The login page has an E-mail field too: fill the one of the page the link leads to.
  await page.waitForURL((url) => url.pathname === '/login/email')
  await page.getByRole('button', { name: 'Send me a link' }).waitFor()
  await page.getByLabel('E-mail').fill(person.email)
  const mail = mailbox.next(mailTo(person.email))
  // Awaited by the caller; a failure before that must not also surface as an unhandled rejection.
  mail.catch(() => undefined)
  await page.getByRole('button', { name: 'Send me a link' }).click()
  await page.getByLabel('Code from the mail').waitFor()
  return mail
}

async function signOut() {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL((url) => url.pathname === '/login')
}

describe('sign-in by e-mail in Chromium', () => {
  it('the link, opened in the browser that asked, signs it in', async () => {
    const mail = await askForMail()
    expect(await axeViolations(page, 'passwordless-waiting')).toEqual([])
    await page.goto(linkIn(await mail))
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await signOut()
  }, 60_000)

  it('the code, typed on the page that asked, signs it in; a wrong one says so', async () => {
    const mail = await askForMail()
    const code = codeIn(await mail)
    await page.getByLabel('Code from the mail').fill(code === '000000' ? '111111' : '000000')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').waitFor()
    await page.getByLabel('Code from the mail').fill(code)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await signOut()
  }, 60_000)
})
