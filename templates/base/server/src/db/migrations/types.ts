// Released migrations of the feature slices import their types from here, and a released
// migration never changes: this path stays, naming the kernel's (kernel/db/migrations/types.ts).
export * from '../../kernel/db/migrations/types.js'
