import type { AppFeature } from '../context.js'

/** A feature slice's one object (its folder's `index.ts` exports it as `feature`), checked against the kernel's points. */
export const defineFeature = <const F extends AppFeature>(feature: F): F => feature
