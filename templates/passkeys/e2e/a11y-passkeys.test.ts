import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchWithAuthenticator, steps, type PasskeyBrowser } from './support/passkeys'

// The passkeys layer's pages through axe-core (WCAG 2.2 A/AA, both themes, desktop and phone).
const member = { name: 'Pia Passkey', email: 'pia@example.com', password: 'pia-password-1' }

let server: AppServer
let browser: PasskeyBrowser
let page: PasskeyBrowser['page']
let step: ReturnType<typeof steps>

const noViolations = async (name: string) => expect(await axeViolations(page, name)).toEqual([])

beforeAll(async () => {
  server = await startAppServer({ users: [member] })
  browser = await launchWithAuthenticator()
  page = browser.page
  step = steps(page, server, member)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('passkeys: WCAG 2.2 A/AA (axe-core)', () => {
  it('the login page with its passkey button', async () => {
    await page.goto(step.at('/login'))
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor()
    await noViolations('login with passkeys')
  })

  it('the passkeys settings, empty, in the add dialog, and with a passkey being renamed', async () => {
    await step.passwordLogIn()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await step.openSettings('Passkeys', '/settings/passkeys')
    await page.getByText('You have no passkeys yet.').waitFor()
    await noViolations('passkeys settings, empty')

    await page.getByRole('button', { name: 'Add a passkey', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' })
    await dialog.getByLabel('Password').fill(member.password)
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').filter({ hasText: 'added.' }).waitFor()
    await noViolations('passkeys settings, one passkey')

    await page.getByRole('button', { name: /^Rename / }).click()
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor()
    await noViolations('passkeys settings, renaming')
  })
})
