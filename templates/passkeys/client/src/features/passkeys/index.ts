import type { ClientFeature } from '../types'
import en from '@/features/passkeys/locales/en.json'
import PasskeyConfirm from '@/features/passkeys/components/PasskeyConfirm.vue'
import PasskeySignIn from '@/features/passkeys/components/PasskeySignIn.vue'
import { withPageTexts } from '@/lib/page-texts'

declare module '@/types' {
  interface FeatureUserFields {
    /** How many passkeys the user has registered. */
    passkeys: number
  }
}

export const feature: ClientFeature = {
  settings: [{ path: 'passkeys', name: 'settings-passkeys', component: withPageTexts(() => import('@/features/passkeys/pages/settings/PasskeysSettingsPage.vue')), meta: { title: 'passkeys.titles.settings' } }],
  // `webauthn` lets the browser offer passkeys in the e-mail field's autofill (conditional mediation).
  login: { component: PasskeySignIn, autocomplete: 'webauthn' },
  confirm: { method: 'passkey', component: PasskeyConfirm },
  messages: { en, de: () => import('@/features/passkeys/locales/de.json') },
}
