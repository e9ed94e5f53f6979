import type { Express } from 'express'
import type { User } from '../../src/kernel/models/index.js'

/** What a guarded route's row is given: the app, and a signed-in user (an admin where the row asks). */
export interface StepUpSubject {
  app: Express
  user: User
  cookies: Record<string, string>
}

/** One route that needs a live confirmation (step-up), as its layer's file under tests/step-up/ lists it. */
export interface GuardedRoute {
  name: string
  role?: 'admin'
  /** Prepares what the request acts on (a second user, a passkey) and says what to send; no password field. */
  request(subject: StepUpSubject): Promise<{ method: 'post' | 'put' | 'patch' | 'delete'; path: string; body?: object }>
  /** The status it answers once confirmed. */
  success: number
}

/** A layer's file under tests/step-up/: its rows, and what its routes need running (a provider to link). */
export interface StepUpFile {
  guardedRoutes: GuardedRoute[]
  /** Started once before the app is built; `env` goes into the app's environment. */
  setup?: () => Promise<{ env: Record<string, string>; close(): Promise<void> }>
}
