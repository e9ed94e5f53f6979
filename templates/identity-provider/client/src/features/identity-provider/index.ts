import type { ClientFeature } from '../types'
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
    // RFC 8628's verification_uri: where a person types the code a device shows, signed in first.
    {
      path: '/device',
      name: 'device',
      component: withPageTexts(() => import('@/features/identity-provider/pages/DevicePage.vue')),
      meta: { auth: true, title: 'oauthProvider.titles.device' },
    },
  ],
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
