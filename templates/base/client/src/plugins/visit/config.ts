import type { App } from 'vue'
import type { Router } from 'vue-router'
import { createHttp, type Http } from './http'

let http = createHttp()
let router: Router | null = null

export interface VisitConfig {
  http?: Http
  router?: Router
}

/** Sets the HTTP client and the router used where no component is there to inject one. */
export function configureVisit(config: VisitConfig): void {
  if (config.http) http = config.http
  if (config.router) router = config.router
}

/** `app.use(createVisit({ http, router }))` */
export function createVisit(config: VisitConfig = {}) {
  return {
    install(app: App) {
      configureVisit({ router: app.config.globalProperties.$router, ...config })
    },
  }
}

export const getHttp = (): Http => http
export const getFallbackRouter = (): Router | null => router
