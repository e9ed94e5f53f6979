/**
 * Where the CLI's words go. With `--json`, stdout carries the one JSON document and nothing else:
 * every line for a person, and the output of the tools it runs, goes to stderr instead.
 */
let machine = false

export function useMachineOutput(): void {
  machine = true
  // Every message goes through console.log; moving it moves them all, those of later modules too.
  console.log = (...args: unknown[]) => console.error(...args)
}

/** The stdout of a tool the CLI runs (the package manager, a migration): ours, or stderr under --json. */
export const toolStdout = (): 'inherit' | 2 => (machine ? 2 : 'inherit')

/**
 * A closed pipe (`create-cookie-auth-app --help | head -1`) ends the CLI quietly, with the exit
 * status it had, as git's and npm's do, rather than with an unhandled EPIPE.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0)
    })
  }
}
