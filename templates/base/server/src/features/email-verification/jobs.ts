import { registerAddress, resendVerificationLink, type BaseJobHandlers, type JobDeps } from '../../kernel/index.js'

/**
 * The work behind register (with verification required) and resend-verification. The HTTP
 * handlers answer the same for every address; whether an account exists is only decided here.
 */
export const verificationJobs = (deps: JobDeps): Pick<BaseJobHandlers, 'user:verify-email'> => ({
  async 'user:verify-email'(job) {
    if (job.reason === 'register') await registerAddress(deps, job.email, { name: job.name, passwordHash: job.passwordHash }, job.locale)
    else await resendVerificationLink(deps, job.email, job.eventsUpTo, job.locale)
  },
})
