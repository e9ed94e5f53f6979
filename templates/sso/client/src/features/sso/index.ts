import type { ClientFeature } from '../types'
import en from '@/features/sso/locales/en.json'
import SsoSignIn from '@/features/sso/components/SsoSignIn.vue'

export const feature: ClientFeature = {
  login: { component: SsoSignIn },
  messages: { en, de: () => import('@/features/sso/locales/de.json') },
}
