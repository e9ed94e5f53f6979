/**
 * The user's browser at the provider. oidc-provider's development interactions (lib/actions/interaction.js
 * and lib/views in its package) render, at GET /interaction/:uid, a form that posts back to that same
 * URL: `prompt=login` with `login` and `password` (any values sign in), then `prompt=consent`; the
 * "[ Cancel ]" link is GET /interaction/:uid/abort. The forms are read from the page rather than
 * rebuilt, so a changed path shows up as a clear failure instead of a silent 404.
 */

/** Follows an authorization URL at the provider as a browser would: logs in as `login` on the provider's own pages and consents. Returns the URL the provider sends the browser back to (the app's callback with code, state and iss), without fetching it. */
export async function authorizeAt(authorizationUrl: string, login: string): Promise<URL> {
  let signedIn = false
  return browse(authorizationUrl, (page) => {
    const form = postForm(page)
    if (form?.prompt === 'login' && !signedIn) {
      signedIn = true
      return { ...form, body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }) }
    }
    if (form?.prompt === 'consent') return { ...form, body: new URLSearchParams({ prompt: 'consent' }) }
    return undefined
  })
}

/** The same, but the user cancels at the provider (abort on the login page): the callback then carries error=access_denied. */
export async function denyAt(authorizationUrl: string): Promise<URL> {
  let cancelled = false
  const back = await browse(authorizationUrl, (page) => {
    const abort = /<a href="([^"]*\/abort)"/.exec(page.html)?.[1]
    if (!abort || cancelled) return undefined
    cancelled = true
    return { method: 'GET', url: new URL(unescapeHtml(abort), page.url) }
  })
  if (!cancelled) throw new Error(`denyAt: the provider sent the browser back without a page to cancel on: ${back.href}`)
  return back
}

interface Page {
  url: URL
  html: string
}

interface Step {
  method: 'GET' | 'POST'
  url: URL
  body?: URLSearchParams
}

/** Requests and follows redirects until one leaves the provider's origin; `act` turns each page into the next request. */
async function browse(authorizationUrl: string, act: (page: Page) => Step | undefined): Promise<URL> {
  const jar = new CookieJar()
  let step: Step = { method: 'GET', url: new URL(authorizationUrl) }
  const origin = step.url.origin
  for (let hops = 0; hops < 20; hops++) {
    const headers = new Headers()
    const cookie = jar.header(step.url)
    if (cookie) headers.set('cookie', cookie)
    // fetch sets the form's content type from the URLSearchParams body.
    const res = await fetch(step.url, { method: step.method, redirect: 'manual', headers, body: step.body ?? null })
    jar.store(res.headers.getSetCookie(), step.url)
    const location = res.headers.get('location')
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, step.url)
      await res.body?.cancel()
      if (next.origin !== origin) return next
      step = { method: 'GET', url: next }
      continue
    }
    const page = { url: step.url, html: await res.text() }
    const next = res.status === 200 ? act(page) : undefined
    if (!next) throw new Error(`unexpected answer from ${step.method} ${step.url.href}: ${res.status} ${snippet(page.html)}`)
    step = next
  }
  throw new Error(`the provider did not send the browser back within 20 requests (last: ${step.url.href})`)
}

function postForm(page: Page): (Step & { prompt: string }) | undefined {
  const form = /<form[^>]*action="([^"]*)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(page.html)
  const prompt = form?.[2] && /name="prompt" value="([^"]*)"/.exec(form[2])?.[1]
  if (!form || form[1] === undefined || !prompt) return undefined
  return { method: 'POST', url: new URL(unescapeHtml(form[1]), page.url), prompt }
}

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity] ?? '')

/** The page's visible text, enough to see oidc-provider's error and error_description. */
const snippet = (html: string) =>
  unescapeHtml(html.replace(/<(head|style|script)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400)

/** Just enough of a browser's cookie store for one provider: name, value and path, dropped when expired. */
class CookieJar {
  private cookies = new Map<string, { value: string; path: string }>()

  store(setCookies: string[], url: URL) {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
      const eq = pair.indexOf('=')
      if (eq <= 0) continue
      const name = pair.slice(0, eq)
      const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1)
      const maxAge = attribute('max-age')
      const expires = attribute('expires')
      const expired = maxAge !== undefined ? Number(maxAge) <= 0 : expires !== undefined && Date.parse(expires) <= Date.now()
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, { value: pair.slice(eq + 1), path: attribute('path') ?? defaultPath(url) })
    }
  }

  header(url: URL): string {
    return [...this.cookies]
      .filter(([, { path }]) => url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(([name, { value }]) => `${name}=${value}`)
      .join('; ')
  }
}

const defaultPath = (url: URL) => url.pathname.slice(0, Math.max(1, url.pathname.lastIndexOf('/')))
