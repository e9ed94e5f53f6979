// Runs in the worker threads of passwords.ts, as plain JavaScript so that tsx, Vitest and the
// compiled server all load the same file. bcrypt's synchronous calls hash on this thread;
// its async API would queue on libuv's pool instead, the one the database driver runs on.
import bcrypt from 'bcrypt'

export const hash = ({ password, cost }) => bcrypt.hashSync(password, cost)

export const compare = ({ password, digest }) => bcrypt.compareSync(password, digest)
