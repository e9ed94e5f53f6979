import { earlierCode, twoFactorApi } from '../helpers/two-factor.js'
import type { GuardedRoute, StepUpSubject } from './types.js'

/** Turns two-factor authentication on for the subject (its confirmation step ends every confirmation). */
async function turnOn({ app, cookies }: StepUpSubject): Promise<void> {
  const api = twoFactorApi(app, cookies)
  const started = await api.enable()
  const confirmed = await api.confirm({ code: await earlierCode(started.body.secret as string) })
  if (confirmed.status !== 200) throw new Error(`two-factor on: ${confirmed.status} ${JSON.stringify(confirmed.body)}`)
}

export const guardedRoutes: GuardedRoute[] = [
  { name: 'enable two-factor', request: async () => ({ method: 'post', path: '/api/account/two-factor' }), success: 200 },
  {
    name: 'disable two-factor',
    request: async (subject) => (await turnOn(subject), { method: 'delete', path: '/api/account/two-factor' }),
    success: 204,
  },
  {
    name: 'new recovery codes',
    request: async (subject) => (await turnOn(subject), { method: 'post', path: '/api/account/two-factor/recovery-codes' }),
    success: 200,
  },
]
