import { shallowRef } from 'vue'

/** The "Confirm it's you" dialog's question while it is open (App.vue shows the dialog then). */
export const confirmation = shallowRef<{ settle(confirmed: boolean): void } | null>(null)

/**
 * What the HTTP client asks when the API wants the user to confirm it's them (step-up): the dialog
 * opens, and the answer is true once the API has confirmed the session. Withdrawn (every request
 * waiting was cancelled: the page was left), the dialog closes.
 */
export function confirmItsYou(_refusal: unknown, withdrawn: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const question = {
      settle(confirmed: boolean) {
        if (confirmation.value === question) confirmation.value = null
        resolve(confirmed)
      },
    }
    confirmation.value = question
    withdrawn.addEventListener('abort', () => question.settle(false), { once: true })
  })
}
