/** Social sign-in settings. */
export const oauth = {
  /** A flow started at the provider must come back within this long, once. */
  flowSeconds: 600,
  /** Where a sign-in without `redirect` lands. */
  defaultRedirect: '/dashboard',
  /** Where linking from settings comes back to. */
  settingsPath: '/settings/connections',
  /**
   * The longest a provider may take to answer one request (discovery, code, user info): a
   * provider that hangs must not hold the browser's request.
   */
  timeoutSeconds: 5,
  /** The longest `redirect` accepted. */
  redirectMaxLength: 2000,
}
