import { createRouter, createWebHistory, type RouterHistory } from 'vue-router'
import { installGuards } from './guards'
import { features } from '@/features'
import LoginPage from '@/pages/LoginPage.vue'
import { withPageTexts } from '@/lib/page-texts'

declare module 'vue-router' {
  interface RouteMeta {
    /** A catalogue key: the page's title in the tab and, for settings pages, in the settings nav. */
    title?: string
    /** Only for signed-out visitors (a signed-in user goes to the dashboard). */
    guest?: boolean
    auth?: boolean
    admin?: boolean
  }
}

// The login page, where every signed-out visit lands, comes with the app; every other page is a
// chunk of its own, loaded when it is first opened (create-vue's way), with the texts it shows.
// So the first load carries what the first page needs, not what an admin's or a settings page does.
export function createAppRouter(history: RouterHistory = createWebHistory()) {
  const router = createRouter({
    history,
    routes: [
      { path: '/', redirect: '/dashboard' },
      { path: '/login', name: 'login', component: LoginPage, meta: { guest: true, title: 'titles.login' } },
      { path: '/register', name: 'register', component: withPageTexts(() => import('@/pages/RegisterPage.vue')), meta: { guest: true, title: 'titles.register' } },
      { path: '/forgot-password', name: 'forgot-password', component: withPageTexts(() => import('@/pages/ForgotPasswordPage.vue')), meta: { guest: true, title: 'titles.forgotPassword' } },
      ...features.flatMap((feature) => feature.routes ?? []),
      // Mail links work whether or not someone is signed in on this browser.
      { path: '/reset-password', name: 'reset-password', component: withPageTexts(() => import('@/pages/ResetPasswordPage.vue')), meta: { title: 'titles.resetPassword' } },
      { path: '/verify-email', name: 'verify-email', component: withPageTexts(() => import('@/pages/VerifyEmailPage.vue')), meta: { title: 'titles.verifyEmail' } },
      { path: '/confirm-email', name: 'confirm-email', component: withPageTexts(() => import('@/pages/ConfirmEmailPage.vue')), meta: { title: 'titles.confirmEmail' } },
      { path: '/dashboard', name: 'dashboard', component: withPageTexts(() => import('@/pages/DashboardPage.vue')), meta: { auth: true, title: 'titles.dashboard' } },
      { path: '/users', name: 'users', component: withPageTexts(() => import('@/pages/UsersPage.vue')), meta: { auth: true, admin: true, title: 'titles.users' } },
      { path: '/admin/webhooks', name: 'admin-webhooks', component: withPageTexts(() => import('@/pages/admin/WebhooksPage.vue')), meta: { auth: true, admin: true, title: 'titles.webhooks' } },
      {
        // The children inherit `auth`: vue-router merges the meta of every matched record.
        path: '/settings',
        component: withPageTexts(() => import('@/layouts/SettingsLayout.vue')),
        meta: { auth: true },
        redirect: { name: 'settings-profile' },
        children: [
          { path: 'profile', name: 'settings-profile', component: withPageTexts(() => import('@/pages/settings/ProfileSettingsPage.vue')), meta: { title: 'titles.profile' } },
          { path: 'password', name: 'settings-password', component: withPageTexts(() => import('@/pages/settings/PasswordSettingsPage.vue')), meta: { title: 'titles.password' } },
          { path: 'sessions', name: 'settings-sessions', component: withPageTexts(() => import('@/pages/settings/SessionsSettingsPage.vue')), meta: { title: 'titles.sessions' } },
          { path: 'security', name: 'settings-security', component: withPageTexts(() => import('@/pages/settings/SecuritySettingsPage.vue')), meta: { title: 'titles.security' } },
          ...features.flatMap((feature) => feature.settings ?? []),
          {
            path: 'delete-account',
            name: 'settings-delete-account',
            component: withPageTexts(() => import('@/pages/settings/DeleteAccountSettingsPage.vue')),
            meta: { title: 'titles.deleteAccount' },
          },
        ],
      },
      { path: '/:pathMatch(.*)*', name: 'not-found', component: withPageTexts(() => import('@/pages/NotFoundPage.vue')), meta: { title: 'titles.notFound' } },
    ],
    // Back and forward return to where the user was; new pages start at the top. Visits with
    // preserveScroll restore their own position after this has run.
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  })
  installGuards(router)
  return router
}
