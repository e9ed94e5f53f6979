import type { JobDeps, JobHandlers, Locale } from '../../kernel/index.js'
import { mailInvitation } from './services/invitations.js'

declare module '../../jobs/types.js' {
  interface JobPayloads {
    /** An invitation to mail: the request made the row (services/invitations.ts); the job gets its id, never an address or a token. */
    'team:invitation': { invitationId: number; locale?: Locale }
  }
}

export const invitationJobs = (deps: JobDeps): Pick<JobHandlers, 'team:invitation'> => ({
  async 'team:invitation'({ invitationId, locale }) {
    await mailInvitation(deps, invitationId, locale)
  },
})
