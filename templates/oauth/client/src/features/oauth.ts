import type { ClientFeature } from './types'
import OAuthConfirm from '@/components/OAuthConfirm.vue'
import { confirmReturned } from '@/lib/oauth'
import OAuthSignIn from '@/components/OAuthSignIn.vue'
import OAuthSignUp from '@/components/OAuthSignUp.vue'
import ConnectionsSettingsPage from '@/pages/settings/ConnectionsSettingsPage.vue'

export const feature: ClientFeature = {
  settings: [{ path: 'connections', name: 'settings-connections', component: ConnectionsSettingsPage, meta: { title: 'Connections' } }],
  login: { component: OAuthSignIn },
  register: { component: OAuthSignUp },
  confirm: { method: 'provider', component: OAuthConfirm, returned: confirmReturned },
}
