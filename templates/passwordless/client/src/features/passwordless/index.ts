import type { ClientFeature } from '../types'
import en from '@/features/passwordless/locales/en.json'
import EmailConfirm from '@/features/passwordless/components/EmailConfirm.vue'
import EmailSignInLink from '@/features/passwordless/components/EmailSignInLink.vue'
import { withPageTexts } from '@/lib/page-texts'

export const feature: ClientFeature = {
  routes: [
    // Asking for a mail and typing its code; with `?token=`, the mail's link.
    {
      path: '/login/email',
      name: 'login-email',
      component: withPageTexts(() => import('@/features/passwordless/pages/EmailSignInRoute.vue')),
      meta: { title: 'passwordless.titles.page' },
    },
  ],
  settings: [{ path: 'email-sign-in', name: 'settings-email-sign-in', component: withPageTexts(() => import('@/features/passwordless/pages/settings/EmailSignInSettingsPage.vue')), meta: { title: 'passwordless.titles.settings' } }],
  login: { component: EmailSignInLink },
  confirm: { method: 'email', component: EmailConfirm },
  messages: { en, de: () => import('@/features/passwordless/locales/de.json') },
}
