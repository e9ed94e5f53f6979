/** Why `update` stops before writing anything, as the one line the CLI prints (exit code 1). */
export class Refusal extends Error {}
