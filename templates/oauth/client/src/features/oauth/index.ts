import type { ClientFeature } from '../types'
import en from '@/features/oauth/locales/en.json'
import OAuthConfirm from '@/features/oauth/components/OAuthConfirm.vue'
import { confirmReturned } from '@/features/oauth/lib/oauth'
import OAuthSignIn from '@/features/oauth/components/OAuthSignIn.vue'
import OAuthSignUp from '@/features/oauth/components/OAuthSignUp.vue'
import { withPageTexts } from '@/lib/page-texts'

export const feature: ClientFeature = {
  settings: [{ path: 'connections', name: 'settings-connections', component: withPageTexts(() => import('@/features/oauth/pages/settings/ConnectionsSettingsPage.vue')), meta: { title: 'oauth.titles.settings' } }],
  login: { component: OAuthSignIn },
  register: { component: OAuthSignUp },
  confirm: { method: 'provider', component: OAuthConfirm, returned: confirmReturned },
  messages: { en, de: () => import('@/features/oauth/locales/de.json') },
}
