import type { RouteLocationNormalized, RouteLocationRaw, Router } from 'vue-router'
import { features } from '@/features'
import { appName } from '@/lib/appName'
import { t } from '@/lib/i18n'
import { useAuthStore } from '@/stores/auth'
import { useFlashStore } from '@/stores/flash'

export function installGuards(router: Router): void {
  router.beforeEach(async (to) => {
    const auth = useAuthStore()
    await auth.check()
    if (to.meta.guest && auth.user) return { name: 'dashboard' }
    if ((to.meta.auth || to.meta.admin) && !auth.user) return { name: 'login', query: { redirect: to.fullPath } }
    if (to.meta.admin && !auth.isAdmin) {
      useFlashStore().show(t('flash.adminsOnly'), 'error')
      return { name: 'dashboard' }
    }
    return confirmationReturned(to)
  })

  router.afterEach((to) => setTitle(to))
}

/** The tab's title: the page's, in the reader's language, then the app's name. */
export function setTitle(to: RouteLocationNormalized): void {
  document.title = [to.meta.title && t(to.meta.title), appName].filter(Boolean).join(' · ')
}

/**
 * A way of confirming it's you that left the page comes back to it with its outcome in the query:
 * told once, as a flash, and the page opens without it.
 */
function confirmationReturned(to: RouteLocationNormalized): RouteLocationRaw | undefined {
  for (const feature of features) {
    const report = feature.confirm?.returned?.(to.query)
    if (!report) continue
    useFlashStore().show(report.message, report.kind)
    const query = { ...to.query }
    for (const key of report.keys) delete query[key]
    return { path: to.path, query, hash: to.hash, replace: true }
  }
}
