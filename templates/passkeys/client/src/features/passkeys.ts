import type { ClientFeature } from './types'
import PasskeyConfirm from '@/components/PasskeyConfirm.vue'
import PasskeySignIn from '@/components/PasskeySignIn.vue'
import PasskeysSettingsPage from '@/pages/settings/PasskeysSettingsPage.vue'

declare module '@/types' {
  interface FeatureUserFields {
    /** How many passkeys the user has registered. */
    passkeys: number
  }
}

export const feature: ClientFeature = {
  settings: [{ path: 'passkeys', name: 'settings-passkeys', component: PasskeysSettingsPage, meta: { title: 'Passkeys' } }],
  // `webauthn` lets the browser offer passkeys in the e-mail field's autofill (conditional mediation).
  login: { component: PasskeySignIn, autocomplete: 'webauthn' },
  confirm: { method: 'passkey', component: PasskeyConfirm },
}
