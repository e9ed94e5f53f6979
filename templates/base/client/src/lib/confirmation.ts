import { t } from './i18n'

interface PasswordForm {
  data: { password: string; password_confirmation: string }
  setError(field: 'password_confirmation', message: string): unknown
  clearErrors(field: 'password_confirmation'): unknown
}

/**
 * The "confirm password" check, which the API leaves to the page: on submit, and on leaving
 * the confirmation once something is typed there. True when the two match.
 */
export function confirmPassword(form: PasswordForm): boolean {
  const matches = form.data.password === form.data.password_confirmation
  if (matches) form.clearErrors('password_confirmation')
  else form.setError('password_confirmation', t('errors.passwordsDiffer'))
  return matches
}
