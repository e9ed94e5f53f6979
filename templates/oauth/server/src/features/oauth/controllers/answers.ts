/** The pages a browser is sent back to when a provider flow ends without what it came for (the codes the login page explains). */
export type FlowError = 'oauth_failed' | 'account_exists' | 'email_unverified' | 'already_linked' | 'provider_unavailable' | 'confirm_failed'

export const withError = (page: string, code: FlowError) => withParams(page, { error: code })

/** `page`, a path on this site that may carry a query of its own (a `redirect`), with `params` added. */
export function withParams(page: string, params: Record<string, string>): string {
  const url = new URL(page, 'http://app.invalid')
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.pathname + url.search + url.hash
}

/** The provider's discovery or token endpoint did not answer: no flow could start. */
export const providerUnavailable = (page: string) => withError(page, 'provider_unavailable')
