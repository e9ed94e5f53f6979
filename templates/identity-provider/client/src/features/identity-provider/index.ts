import type { ClientFeature } from '../types'
import ClientsLink from '@/features/identity-provider/components/ClientsLink.vue'
import en from '@/features/identity-provider/locales/en.json'
import { withPageTexts } from '@/lib/page-texts'

export const feature: ClientFeature = {
  // The consent page the provider sends a person to: signed in first (the login page comes back here).
  routes: [
    {
      path: '/oauth2/authorize',
      name: 'oauth2-authorize',
      component: withPageTexts(() => import('@/features/identity-provider/pages/ConsentPage.vue')),
      meta: { auth: true, title: 'oauthProvider.titles.consent' },
    },
    // The admins' clients: who may ask people for access.
    {
      path: '/admin/oauth-clients',
      name: 'admin-oauth-clients',
      component: withPageTexts(() => import('@/features/identity-provider/pages/admin/OAuthClientsPage.vue')),
      meta: { auth: true, admin: true, title: 'oauthClients.titles.page' },
    },
    // RFC 8628's verification_uri: where a person types the code a device shows, signed in first.
    {
      path: '/device',
      name: 'device',
      component: withPageTexts(() => import('@/features/identity-provider/pages/DevicePage.vue')),
      meta: { auth: true, title: 'oauthProvider.titles.device' },
    },
  ],
  nav: [ClientsLink],
  // The person's grants: every app they allowed, each removable.
  settings: [
    {
      path: 'connected-apps',
      name: 'settings-connected-apps',
      component: withPageTexts(() => import('@/features/identity-provider/pages/settings/ConnectedAppsSettingsPage.vue')),
      meta: { title: 'connectedApps.titles.settings' },
    },
  ],
  messages: { en, de: () => import('@/features/identity-provider/locales/de.json') },
}
