import { defineStore } from 'pinia'
import { ref } from 'vue'

export type FlashKind = 'success' | 'error' | 'info'

/** One message that outlives a navigation, e.g. "Your password has been reset." on /login. */
export const useFlashStore = defineStore('flash', () => {
  const message = ref<string | null>(null)
  const kind = ref<FlashKind>('success')
  let timer: ReturnType<typeof setTimeout> | undefined

  function show(text: string, as: FlashKind = 'success', ms = 6000) {
    clearTimeout(timer)
    message.value = text
    kind.value = as
    timer = setTimeout(clear, ms)
  }

  function clear() {
    clearTimeout(timer)
    message.value = null
  }

  return { message, kind, show, clear }
})
