import type { ClientFeature } from '../types'
import en from '@/features/two-factor/locales/en.json'
import TwoFactorConfirm from '@/features/two-factor/components/TwoFactorConfirm.vue'
import { challengeLocation, needsTwoFactor } from '@/features/two-factor/lib/two-factor'
import { withPageTexts } from '@/lib/page-texts'

declare module '@/types' {
  interface FeatureUserFields {
    /** Sign-in asks for a code from an authenticator app after the password. */
    twoFactorEnabled: boolean
  }
}

export const feature: ClientFeature = {
  routes: [
    // The second step of a sign-in: the password was right, a code is still to come.
    {
      path: '/two-factor-challenge',
      name: 'two-factor-challenge',
      component: withPageTexts(() => import('@/features/two-factor/pages/TwoFactorChallengePage.vue')),
      meta: { guest: true, title: 'twoFactor.titles.challenge' },
    },
  ],
  settings: [{ path: 'two-factor', name: 'settings-two-factor', component: withPageTexts(() => import('@/features/two-factor/pages/settings/TwoFactorSettingsPage.vue')), meta: { title: 'twoFactor.titles.settings' } }],
  afterLogin: (data, redirect) => (needsTwoFactor(data) ? challengeLocation(redirect) : undefined),
  confirm: { method: 'totp', component: TwoFactorConfirm },
  messages: { en, de: () => import('@/features/two-factor/locales/de.json') },
}
