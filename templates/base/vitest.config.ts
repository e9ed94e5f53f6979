import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

/** Files that compare response times: they run after the others, alone, so no other file's load skews them. */
const TIMED = ['server/tests/enumeration.test.ts']

const server = {
  root: '.',
  environment: 'node',
  // Creates and migrates a database for each worker (SQLite file, MySQL or PostgreSQL database), probes Redis.
  globalSetup: ['server/tests/setup/global-setup.ts'],
  // Nothing reaches beyond loopback; every answer the HTTP tests receive is checked against the app's OpenAPI document.
  setupFiles: ['server/tests/setup/loopback-only.ts', 'server/tests/setup/validate-responses.ts'],
  testTimeout: 20000,
  hookTimeout: 60000,
}

export default defineConfig({
  test: {
    projects: [
      {
        // Each worker has a database of its own, so its files need not wait for each other's.
        // Files share a worker's loaded modules (not isolated): each builds its own apps and
        // contexts, and loading the app afresh for every file took a third of the run.
        test: { ...server, name: 'server', include: ['server/tests/**/*.test.ts'], exclude: TIMED, setupFiles: [...server.setupFiles, 'server/tests/setup/bcrypt-cost.ts'], maxWorkers: 2, isolate: false },
      },
      mergeConfig(viteConfig, {
        root: '.',
        test: {
          name: 'client',
          include: ['client/tests/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['client/tests/support/setup.ts'],
          maxWorkers: 2,
        },
      }),
      {
        test: { ...server, name: 'server:timing', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
