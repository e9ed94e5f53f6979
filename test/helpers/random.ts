/** A deterministic stand-in for crypto.randomBytes: bytes 0, 1, 2, … from a counter. */
export function countingRandom(seed = 0): (bytes: number) => Buffer {
  let next = seed
  return (bytes) => Buffer.from(Array.from({ length: bytes }, () => next++ % 256))
}
