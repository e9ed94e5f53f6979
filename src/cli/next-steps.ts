import { relative } from 'node:path'
import { runScript } from '../generate/context.js'
import { type Answers, type PackageManager, answersToArgs } from '../options.js'
import { shellQuote } from './shell.js'

const RUNNERS: Record<PackageManager, string> = {
  npm: 'npx',
  pnpm: 'pnpm dlx',
  yarn: 'yarn dlx',
  bun: 'bunx',
}

/** The one command that generates this same project again, without a question. */
export function reproduceCommand(directory: string, answers: Answers): string {
  return [RUNNERS[answers.pm], 'create-cookie-auth-app', shellQuote(directory), ...answersToArgs(answers), '--yes'].join(' ')
}

/** The commands that start the app just made: the "Next steps" lines, and `--json`'s `next`. */
export function nextCommands(targetDir: string, answers: Answers, installed: boolean): string[] {
  const cd = relative(process.cwd(), targetDir)
  return [...(cd ? [`cd ${shellQuote(cd)}`] : []), ...(installed ? [] : [`${answers.pm} install`]), runScript(answers.pm, 'dev')]
}

export function nextSteps(targetDir: string, directoryArg: string, answers: Answers, installed: boolean): string {
  const steps = nextCommands(targetDir, answers, installed)
  return [
    '',
    `Done. Your app is in ${targetDir}`,
    '',
    'Next steps:',
    ...steps.map((step) => `  ${step}`),
    '',
    'Then open http://localhost:5173 (the API listens on http://localhost:3000).',
    '',
    'To generate this project again without questions:',
    `  ${reproduceCommand(directoryArg, answers)}`,
    '',
  ].join('\n')
}
