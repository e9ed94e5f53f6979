// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { Migration } from '../../db/migrations/types.js'

/** `migrations.ts`: applied after base's, in layer order; a migration imports no application code. */
export type FeatureMigrations = { name: string; up: Migration; down?: Migration }[]
