const UNIT_SECONDS = { d: 86400, h: 3600, m: 60, s: 1 } as const
type Unit = keyof typeof UNIT_SECONDS

/** `900`, `900s`, `15m`, `1h`, `30d` → seconds; null when the text is not such a duration. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,9})([smhd])?$/.exec(text.trim())
  if (!match) return null
  const seconds = Number(match[1]) * UNIT_SECONDS[(match[2] ?? 's') as Unit]
  return seconds > 0 ? seconds : null
}

/** The shortest exact spelling: 900 → `15m`, 90 → `90s`, 2592000 → `30d`. */
export function formatDuration(seconds: number): string {
  for (const unit of Object.keys(UNIT_SECONDS) as Unit[]) {
    const size = UNIT_SECONDS[unit]
    if (seconds % size === 0) return `${seconds / size}${unit}`
  }
  return `${seconds}s`
}
