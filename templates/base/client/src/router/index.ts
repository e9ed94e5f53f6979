import { createRouter, createWebHistory, type RouterHistory } from 'vue-router'
import { installGuards } from './guards'
import { features } from '@/features'
import LoginPage from '@/pages/LoginPage.vue'
import RegisterPage from '@/pages/RegisterPage.vue'
import ForgotPasswordPage from '@/pages/ForgotPasswordPage.vue'
import ResetPasswordPage from '@/pages/ResetPasswordPage.vue'
import VerifyEmailPage from '@/pages/VerifyEmailPage.vue'
import ConfirmEmailPage from '@/pages/ConfirmEmailPage.vue'
import DashboardPage from '@/pages/DashboardPage.vue'
import NotFoundPage from '@/pages/NotFoundPage.vue'
import SettingsLayout from '@/layouts/SettingsLayout.vue'
import ProfileSettingsPage from '@/pages/settings/ProfileSettingsPage.vue'
import PasswordSettingsPage from '@/pages/settings/PasswordSettingsPage.vue'
import SessionsSettingsPage from '@/pages/settings/SessionsSettingsPage.vue'
import SecuritySettingsPage from '@/pages/settings/SecuritySettingsPage.vue'
import DeleteAccountSettingsPage from '@/pages/settings/DeleteAccountSettingsPage.vue'

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

// Pages load with the app: apart they would weigh more than together (each chunk lists what it
// imports from the rest). Only the users page, for admins alone and the heaviest (the DataTable),
// loads when it is first opened, so no one else downloads it; so do the webhooks, for admins too.
export function createAppRouter(history: RouterHistory = createWebHistory()) {
  const router = createRouter({
    history,
    routes: [
      { path: '/', redirect: '/dashboard' },
      { path: '/login', name: 'login', component: LoginPage, meta: { guest: true, title: 'titles.login' } },
      { path: '/register', name: 'register', component: RegisterPage, meta: { guest: true, title: 'titles.register' } },
      { path: '/forgot-password', name: 'forgot-password', component: ForgotPasswordPage, meta: { guest: true, title: 'titles.forgotPassword' } },
      ...features.flatMap((feature) => feature.routes ?? []),
      // Mail links work whether or not someone is signed in on this browser.
      { path: '/reset-password', name: 'reset-password', component: ResetPasswordPage, meta: { title: 'titles.resetPassword' } },
      { path: '/verify-email', name: 'verify-email', component: VerifyEmailPage, meta: { title: 'titles.verifyEmail' } },
      { path: '/confirm-email', name: 'confirm-email', component: ConfirmEmailPage, meta: { title: 'titles.confirmEmail' } },
      { path: '/dashboard', name: 'dashboard', component: DashboardPage, meta: { auth: true, title: 'titles.dashboard' } },
      { path: '/users', name: 'users', component: () => import('@/pages/UsersPage.vue'), meta: { auth: true, admin: true, title: 'titles.users' } },
      { path: '/admin/webhooks', name: 'admin-webhooks', component: () => import('@/pages/admin/WebhooksPage.vue'), meta: { auth: true, admin: true, title: 'titles.webhooks' } },
      {
        // The children inherit `auth`: vue-router merges the meta of every matched record.
        path: '/settings',
        component: SettingsLayout,
        meta: { auth: true },
        redirect: { name: 'settings-profile' },
        children: [
          { path: 'profile', name: 'settings-profile', component: ProfileSettingsPage, meta: { title: 'titles.profile' } },
          { path: 'password', name: 'settings-password', component: PasswordSettingsPage, meta: { title: 'titles.password' } },
          { path: 'sessions', name: 'settings-sessions', component: SessionsSettingsPage, meta: { title: 'titles.sessions' } },
          { path: 'security', name: 'settings-security', component: SecuritySettingsPage, meta: { title: 'titles.security' } },
          ...features.flatMap((feature) => feature.settings ?? []),
          {
            path: 'delete-account',
            name: 'settings-delete-account',
            component: DeleteAccountSettingsPage,
            meta: { title: 'titles.deleteAccount' },
          },
        ],
      },
      { path: '/:pathMatch(.*)*', name: 'not-found', component: NotFoundPage, meta: { title: 'titles.notFound' } },
    ],
    // Back and forward return to where the user was; new pages start at the top. Visits with
    // preserveScroll restore their own position after this has run.
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  })
  installGuards(router)
  return router
}
