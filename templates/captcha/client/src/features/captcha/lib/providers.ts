import { http } from '@/lib/http'

/** What `GET /api/captcha` says: who checks the answers, and the widget's site key (Turnstile, hCaptcha). */
export interface CaptchaSettings {
  provider: 'cap' | 'turnstile' | 'hcaptcha' | 'off'
  siteKey: string | null
}

let settings: Promise<CaptchaSettings> | undefined

/** Asked once per page load, when a form is first refused for want of an answer. */
export function captchaSettings(): Promise<CaptchaSettings> {
  settings ??= http.get<CaptchaSettings>('/api/captcha').then((response) => response.data)
  settings.catch(() => (settings = undefined))
  return settings
}

/** The providers' own scripts, loaded once each: they render into the element given and call back with the answer. */
const SCRIPTS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
} as const

interface ProviderApi {
  render(element: HTMLElement, options: Record<string, unknown>): unknown
}

const loading = new Map<string, Promise<ProviderApi>>()

export function providerApi(provider: keyof typeof SCRIPTS): Promise<ProviderApi> {
  let api = loading.get(provider)
  if (!api) {
    api = new Promise<ProviderApi>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = SCRIPTS[provider]
      script.async = true
      script.onload = () => {
        const found: unknown = Reflect.get(window, provider)
        if (typeof found === 'object' && found !== null && typeof Reflect.get(found, 'render') === 'function') resolve(found as ProviderApi)
        else reject(new Error(`${provider} did not load`))
      }
      script.onerror = () => reject(new Error(`${provider} did not load`))
      document.head.append(script)
    })
    api.catch(() => loading.delete(provider))
    loading.set(provider, api)
  }
  return api
}
