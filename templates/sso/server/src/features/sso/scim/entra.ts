// Entra ID writes SCIM's booleans as the strings "True" and "False" (in `{"op":"Replace",
// "path":"active","value":"False"}` and in path-less replace objects), which SCIMMY's schema
// rightly refuses. Only those two spellings of only `active` are turned into booleans, before
// SCIMMY sees the message; anything else goes through untouched, to be judged by it.

const BOOLEAN = /^(true|false)$/i
const asBoolean = (value: unknown) => (typeof value === 'string' && BOOLEAN.test(value) ? value.toLowerCase() === 'true' : value)

function fixObject(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, key.toLowerCase() === 'active' ? asBoolean(entry) : entry]))
}

/** A PatchOp message as Entra ID sends it, with its string booleans made booleans. */
export function patchMessageOf(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { Operations?: unknown }).Operations)) return body
  const message = body as { Operations: unknown[] }
  return {
    ...message,
    Operations: message.Operations.map((operation) => {
      if (operation === null || typeof operation !== 'object' || Array.isArray(operation)) return operation
      const { path, value } = operation as { path?: unknown; value?: unknown }
      if (typeof path === 'string') return path.toLowerCase() === 'active' ? { ...operation, value: asBoolean(value) } : operation
      return path === undefined ? { ...operation, value: fixObject(value) } : operation
    }),
  }
}

/** A resource body (POST, PUT) with Entra's string `active` made a boolean. */
export const resourceBodyOf = (body: unknown): unknown => fixObject(body)
