import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generated files are snapshots, never tests of this repo.
    exclude: ['test/__snapshots__/**', 'node_modules/**'],
    testTimeout: 30000,
  },
})
