import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          root: '.',
          include: ['server/tests/**/*.test.ts'],
          environment: 'node',
          // Creates and migrates the run's database (SQLite file or MySQL database), probes Redis.
          globalSetup: ['server/tests/setup/global-setup.ts'],
          // One database per run: files run one after another, each with its own app instance.
          fileParallelism: false,
          testTimeout: 20000,
          hookTimeout: 60000,
        },
      },
      mergeConfig(viteConfig, {
        root: '.',
        test: {
          name: 'client',
          include: ['client/tests/**/*.test.ts'],
          environment: 'happy-dom',
        },
      }),
    ],
  },
})
