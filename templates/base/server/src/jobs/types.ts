/**
 * Jobs carry an e-mail address, never a token: the job creates the token record and mails the
 * plaintext, so no usable token ever sits in Redis. A registration also carries its name and
 * bcrypt hash (never the password), which its verification link will set.
 */
export interface JobPayloads {
  /** `register`: a registration of an address, new or not; `resend`: a new link was asked for. */
  'user:verify-email': { email: string; reason: 'register'; name: string; passwordHash: string } | { email: string; reason: 'resend' }
  'user:reset-password': { email: string }
  /** An e-mail change of a signed-in user to `email`: the job mails both addresses. */
  'user:confirm-email': { userId: number; email: string }
}

export type JobName = keyof JobPayloads

export type JobHandlers = { [K in JobName]: (data: JobPayloads[K]) => Promise<void> }

export const jobNames = ['user:verify-email', 'user:reset-password', 'user:confirm-email'] as const satisfies readonly JobName[]

export interface JobQueue {
  readonly driver: 'redis' | 'memory'
  dispatch<K extends JobName>(name: K, data: JobPayloads[K]): Promise<void>
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>
}

export interface RetryPolicy {
  attempts: number
  /** First retry delay; each further retry doubles it. */
  backoffMs: number
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 5, backoffMs: 2000 }

export function runJob<K extends JobName>(handlers: JobHandlers, name: K, data: JobPayloads[K]): Promise<void> {
  const handler = handlers[name] as ((payload: JobPayloads[K]) => Promise<void>) | undefined
  if (!handler) throw new Error(`Unknown job "${String(name)}"`)
  return handler(data)
}
