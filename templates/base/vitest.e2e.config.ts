import { defineConfig } from 'vitest/config'

// Browser tests: the built app on the real server, driven in the system's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    root: '.',
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    // Two files at a time: each has its own server, database and browser, and one file leaves
    // most of a second core idle (it waits on the browser, the server and the clock in turn).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
