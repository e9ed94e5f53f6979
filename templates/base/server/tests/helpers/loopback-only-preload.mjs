// A process a test starts loads this with `--import` (helpers/processes.ts). Its worker threads
// inherit that, and load no TypeScript there (bcrypt's pool would fail to start), so the
// guard goes into the main thread, where tsx is loaded, and where the app makes its connections.
import { isMainThread } from 'node:worker_threads'

if (isMainThread) await import('./loopback-only.ts')
