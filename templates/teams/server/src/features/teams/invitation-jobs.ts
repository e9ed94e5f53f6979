import { jobDispatcher, type JobDeps, type Locale } from '../../kernel/index.js'
import { mailInvitation } from './services/invitations.js'

export const invitationJobs = (deps: JobDeps) => ({
  /** An invitation to mail: the request made the row (services/invitations.ts); the job gets its id, never an address or a token. */
  async 'team:invitation'({ invitationId, locale }: { invitationId: number; locale?: Locale }) {
    await mailInvitation(deps, invitationId, locale)
  },
})

/** Queues the teams' jobs, each with the payload its handler above takes. */
export const dispatchTeamJob = jobDispatcher(invitationJobs)
