import { createRouter, createWebHistory, type RouterHistory } from 'vue-router'
import { installGuards } from './guards'

declare module 'vue-router' {
  interface RouteMeta {
    title?: string
    /** Only for signed-out visitors (a signed-in user goes to the dashboard). */
    guest?: boolean
    auth?: boolean
    admin?: boolean
  }
}

export function createAppRouter(history: RouterHistory = createWebHistory()) {
  const router = createRouter({
    history,
    routes: [
      { path: '/', redirect: '/dashboard' },
      { path: '/login', name: 'login', component: () => import('@/pages/LoginPage.vue'), meta: { guest: true, title: 'Log in' } },
      { path: '/register', name: 'register', component: () => import('@/pages/RegisterPage.vue'), meta: { guest: true, title: 'Register' } },
      { path: '/forgot-password', name: 'forgot-password', component: () => import('@/pages/ForgotPasswordPage.vue'), meta: { guest: true, title: 'Forgot password' } },
      // Mail links work whether or not someone is signed in on this browser.
      { path: '/reset-password', name: 'reset-password', component: () => import('@/pages/ResetPasswordPage.vue'), meta: { title: 'Reset password' } },
      { path: '/verify-email', name: 'verify-email', component: () => import('@/pages/VerifyEmailPage.vue'), meta: { title: 'Verify e-mail' } },
      { path: '/dashboard', name: 'dashboard', component: () => import('@/pages/DashboardPage.vue'), meta: { auth: true, title: 'Dashboard' } },
      { path: '/users', name: 'users', component: () => import('@/pages/UsersPage.vue'), meta: { auth: true, admin: true, title: 'Users' } },
      { path: '/:pathMatch(.*)*', name: 'not-found', component: () => import('@/pages/NotFoundPage.vue'), meta: { title: 'Not found' } },
    ],
    // Back and forward return to where the user was; new pages start at the top. Visits with
    // preserveScroll restore their own position after this has run.
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  })
  installGuards(router)
  return router
}
