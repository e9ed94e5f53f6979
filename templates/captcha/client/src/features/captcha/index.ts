import type { ClientFeature } from '../types'
import CaptchaChallenge from '@/features/captcha/components/CaptchaChallenge.vue'
import en from '@/features/captcha/locales/en.json'

export const feature: ClientFeature = {
  // The API names this field in its 422 and reads the answer from it (server: gates.ts).
  challenge: { field: 'captcha', component: CaptchaChallenge },
  messages: { en, de: () => import('@/features/captcha/locales/de.json') },
}
