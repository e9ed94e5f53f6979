/** Between half and all of `ms`: waiters put back together do not all come back together. */
export const jittered = (ms: number) => Math.round(ms * (0.5 + Math.random() / 2))
