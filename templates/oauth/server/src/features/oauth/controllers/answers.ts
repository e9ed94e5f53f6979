/** The pages a browser is sent back to when a provider flow ends without what it came for (the codes the login page explains). */
export type FlowError = 'oauth_failed' | 'account_exists' | 'email_unverified' | 'already_linked' | 'provider_unavailable'

export const withError = (page: string, code: FlowError) => `${page}?error=${code}`

/** The provider's discovery or token endpoint did not answer: no flow could start. */
export const providerUnavailable = (page: string) => withError(page, 'provider_unavailable')
