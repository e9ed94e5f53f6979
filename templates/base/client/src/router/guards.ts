import type { Router } from 'vue-router'
import { appName } from '@/lib/appName'
import { useAuthStore } from '@/stores/auth'
import { useFlashStore } from '@/stores/flash'

export function installGuards(router: Router): void {
  router.beforeEach(async (to) => {
    const auth = useAuthStore()
    await auth.check()
    if (to.meta.guest && auth.user) return { name: 'dashboard' }
    if ((to.meta.auth || to.meta.admin) && !auth.user) return { name: 'login', query: { redirect: to.fullPath } }
    if (to.meta.admin && !auth.isAdmin) {
      useFlashStore().show('That page is for administrators.', 'error')
      return { name: 'dashboard' }
    }
  })

  router.afterEach((to) => {
    document.title = [to.meta.title, appName].filter(Boolean).join(' · ')
  })
}
