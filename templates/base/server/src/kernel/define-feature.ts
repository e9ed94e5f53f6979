import type { AppFeature } from './context.js'

/**
 * A feature slice's one object (its folder's `index.ts` exports it as `feature`), checked against
 * the kernel's points and kept as written: its names and types (rate limits, variables, cookies,
 * user fields, jobs, events) are what the registry's merged types (kernel/feature.ts) read.
 */
export const defineFeature = <const F extends AppFeature>(feature: F): F => feature
