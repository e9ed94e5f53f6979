import { mailEmailChange, type BaseJobHandlers, type JobDeps } from '../../kernel/index.js'

/** The mails of an e-mail change, sent while its pending row lives (kernel/services/email-change.ts). */
export const accountJobs = (deps: JobDeps): Pick<BaseJobHandlers, 'user:confirm-email'> => ({
  async 'user:confirm-email'(job) {
    if ('tokenId' in job) await mailEmailChange(deps, job.tokenId, job.locale)
  },
})
