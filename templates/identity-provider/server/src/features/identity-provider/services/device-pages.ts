import { createHash } from 'node:crypto'
import type { Request } from 'express'
import type { Client, KoaContextWithOIDC } from 'oidc-provider'
import { type Env, requestLocale, translatorOf } from '../../../kernel/index.js'
import { devicePageOf } from './urls.js'

/**
 * The device flow's pages that oidc-provider renders itself (RFC 8628): the person types the code
 * on the app's `/device` page, whose form comes here; the provider then asks them to confirm
 * which app they are letting in, and says when it is done. The Vue app keeps the rest: the code's
 * page, the sign-in and the consent.
 */

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f5f6f8;color:#1c2130;line-height:1.5}' +
  'main{max-width:26rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.15)}' +
  'h1{font-size:1.4rem;margin-top:0}code{font-size:1.5rem;letter-spacing:.1em}.row{display:flex;gap:.5rem;margin-top:1rem}' +
  'button{font:inherit;padding:.5rem 1rem;border-radius:8px;border:1px solid #8a91a0;background:#fff;color:#1c2130;cursor:pointer}' +
  'button[autofocus]{background:#2449b8;border-color:#2449b8;color:#fff}' +
  '@media (prefers-color-scheme:dark){body{background:#12141a;color:#e7e9ee}main{background:#1c1f28}button{background:#1c1f28;color:#e7e9ee}button[autofocus]{background:#5b80f0;border-color:#5b80f0;color:#0b0d12}}'

// The pages' own style and nothing else: no script runs, nothing loads, nobody frames them.
const POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'`

/** Text for HTML: the provider's own pages (its error page too, provider.ts) write what a client or a person sent. */
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(ctx: KoaContextWithOIDC, title: string, body: string): void {
  ctx.type = 'html'
  ctx.set('Content-Security-Policy', POLICY)
  ctx.set('Cache-Control', 'no-store')
  ctx.body = `<!DOCTYPE html><html lang="${requestLocale(ctx.req as Request)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
}

const clientNameOf = (client: Client | undefined) => client?.clientName ?? client?.clientId ?? ''

/**
 * oidc-provider's code page: the app's own `/device` is where a code is typed, so this sends the
 * person there, with what went wrong: a code that is unknown, used or expired alike (`code`), or
 * the person turned the request down (`aborted`).
 */
export function codePage(env: Pick<Env, 'BASE_URL'>) {
  return (ctx: KoaContextWithOIDC, _form: string, _out?: unknown, error?: Error & { userCode?: string }): void => {
    const kind = !error ? undefined : error.name === 'AbortedError' ? 'aborted' : 'code'
    ctx.status = 303
    ctx.redirect(kind ? `${devicePageOf(env)}?error=${kind}` : devicePageOf(env))
  }
}

/** Which app the code lets in, and the code itself to compare with the device's: go on, or turn it down. */
export function confirmPage(ctx: KoaContextWithOIDC, form: string, client: Client, _deviceInfo: unknown, userCode: string): void {
  const t = translatorOf(ctx.req as Request)
  page(
    ctx,
    t('oauthProvider.device.confirmTitle'),
    `<h1>${escape(t('oauthProvider.device.confirmTitle'))}</h1>` +
      `<p><strong>${escape(t('oauthProvider.device.confirmAsks', { client: clientNameOf(client) }))}</strong></p>` +
      `<p>${escape(t('oauthProvider.device.confirmCode'))}</p><p><code>${escape(userCode)}</code></p>` +
      `<p>${escape(t('oauthProvider.device.confirmWarning'))}</p>` +
      form +
      `<div class="row"><button autofocus type="submit" form="op.deviceConfirmForm">${escape(t('oauthProvider.device.continue'))}</button>` +
      `<button type="submit" form="op.deviceConfirmForm" name="abort" value="yes">${escape(t('oauthProvider.device.abort'))}</button></div>`,
  )
}

/** The end of the flow in the browser: the device that asked now has its tokens. */
export function donePage(ctx: KoaContextWithOIDC): void {
  const t = translatorOf(ctx.req as Request)
  page(
    ctx,
    t('oauthProvider.device.doneTitle'),
    `<h1>${escape(t('oauthProvider.device.doneTitle'))}</h1><p>${escape(t('oauthProvider.device.done', { client: clientNameOf(ctx.oidc.client) }))}</p>`,
  )
}
