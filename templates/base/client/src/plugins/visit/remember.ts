import { isRef, reactive, ref, toRaw, type Ref, type UnwrapNestedRefs } from 'vue'

interface Entry {
  holder: Record<string, unknown> | unknown[] | Ref<unknown>
  initial: unknown
}

const entries = new Map<string, Entry>()

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null
const copy = <T>(v: T): T => structuredClone(toRaw(v))

/**
 * State that outlives the component under `key`: the same holder comes back after navigating
 * away and back. Objects and arrays come back reactive; other values as a ref.
 */
export function useVisitRemember<T extends object>(key: string, initialValue: T): UnwrapNestedRefs<T>
export function useVisitRemember<T>(key: string, initialValue: T): Ref<T>
export function useVisitRemember(key: string, initialValue: unknown): unknown {
  const found = entries.get(key)
  if (found) return found.holder
  const initial = copy(initialValue)
  const holder = isObject(initial) ? (reactive(copy(initial)) as Entry['holder']) : ref(initial)
  entries.set(key, { initial, holder })
  return holder
}

/** A visit without `preserveState` starts every remembered value over, in place. */
export function resetRemembered(): void {
  for (const { holder, initial } of entries.values()) {
    if (isRef(holder)) holder.value = copy(initial)
    else if (Array.isArray(holder)) holder.splice(0, holder.length, ...copy(initial as unknown[]))
    else {
      for (const k of Object.keys(holder)) delete holder[k]
      Object.assign(holder, copy(initial))
    }
  }
}

/** Drops everything remembered (tests, logout). */
export function forgetRemembered(): void {
  entries.clear()
}
