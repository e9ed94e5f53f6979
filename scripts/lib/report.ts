/** The benchmarks' table cells: a target's verdict, whole numbers, milliseconds. */
export function verdict(ok: boolean, target: string) {
  return `${target} ${ok ? 'met' : 'MISSED'}`
}
export function fmt(n: number) {
  return Math.round(n).toLocaleString('en')
}
export function ms(value: number) {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`
}
