import type { ClientFeature } from '../types'
import en from '@/features/api-keys/locales/en.json'
import { withPageTexts } from '@/lib/page-texts'

export const feature: ClientFeature = {
  // The page and its texts (`locales/pages/`) load when it is first opened: the first load carries
  // only this entry and its title.
  settings: [{ path: 'api-keys', name: 'settings-api-keys', component: withPageTexts(() => import('@/features/api-keys/pages/settings/ApiKeysSettingsPage.vue')), meta: { title: 'apiKeys.titles.settings' } }],
  messages: { en, de: () => import('@/features/api-keys/locales/de.json') },
}
