/** The variables a `.env` sets (commented lines are examples, not settings). */
export function envVariables(contents: Buffer | undefined): Map<string, string> {
  const variables = new Map<string, string>()
  for (const line of contents?.toString('utf8').split('\n') ?? []) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim())
    if (match) variables.set(match[1]!, match[2]!)
  }
  return variables
}

/**
 * What the target's `.env` sets that the base's did not and the app's `.env` lacks: the lines to
 * add by hand (`ENCRYPTION_KEY` for two-factor), as `update` never touches `.env`. The target's
 * values are fresh secrets, drawn for this app.
 */
export function newEnvVariables(app: Buffer | undefined, base: Buffer | undefined, target: Buffer | undefined): Map<string, string> {
  const [present, before] = [envVariables(app), envVariables(base)]
  return new Map([...envVariables(target)].filter(([name]) => !before.has(name) && !present.has(name)))
}
