import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import ModalDialog from '@/components/ModalDialog.vue'

enableAutoUnmount(afterEach)

/** A page with the button that opens the dialog, as the settings pages have it. */
function mountHarness(options: { dismissible?: boolean; autofocus?: boolean } = {}) {
  const open = ref(false)
  const closes = ref(0)
  const Harness = defineComponent({
    setup: () => () => [
      h('button', { id: 'opener', onClick: () => (open.value = true) }, 'Open'),
      h(
        ModalDialog,
        {
          open: open.value,
          title: 'Sign out all other sessions',
          dismissible: options.dismissible ?? true,
          onClose: () => {
            closes.value++
            open.value = false
          },
        },
        {
          default: () => [
            h('p', 'Enter your password.'),
            h('input', { id: 'password', type: 'password', autofocus: options.autofocus }),
          ],
          actions: () => [h('button', { id: 'cancel' }, 'Cancel'), h('button', { id: 'confirm' }, 'Confirm')],
        },
      ),
    ],
  })
  const wrapper = mount(Harness, { attachTo: document.body })
  return { wrapper, open, closes, dialog: () => wrapper.find('dialog').element as HTMLDialogElement }
}

async function openFromButton(wrapper: ReturnType<typeof mountHarness>['wrapper']) {
  const opener = wrapper.find<HTMLButtonElement>('#opener').element
  opener.focus()
  await wrapper.find('#opener').trigger('click')
  await flushPromises()
  return opener
}

const active = () => document.activeElement as HTMLElement | null

describe('ModalDialog', () => {
  it('renders nothing inside until it opens', () => {
    const { wrapper, dialog } = mountHarness()
    expect(dialog().open).toBe(false)
    expect(wrapper.find('dialog').text()).toBe('')
  })

  it('is a labelled modal dialog', async () => {
    const { wrapper, dialog } = mountHarness()
    await openFromButton(wrapper)
    expect(dialog().open).toBe(true)
    expect(dialog().getAttribute('role')).toBe('dialog')
    expect(dialog().getAttribute('aria-modal')).toBe('true')
    const title = document.getElementById(dialog().getAttribute('aria-labelledby')!)
    expect(title?.textContent).toBe('Sign out all other sessions')
    expect(dialog().contains(title)).toBe(true)
  })

  it('moves focus inside on open: the autofocus field, else the first control', async () => {
    const first = mountHarness({ autofocus: true })
    await openFromButton(first.wrapper)
    await vi.waitFor(() => expect(active()?.id).toBe('password'))
    first.wrapper.unmount()

    const second = mountHarness()
    await openFromButton(second.wrapper)
    await vi.waitFor(() => expect(active()?.id).toBe('password'))
  })

  it('keeps Tab and Shift+Tab inside, wrapping at either end', async () => {
    const { wrapper } = mountHarness()
    await openFromButton(wrapper)
    const confirm = wrapper.find<HTMLButtonElement>('#confirm')
    confirm.element.focus()
    await confirm.trigger('keydown', { key: 'Tab' })
    expect(active()?.id).toBe('password')
    await wrapper.find('#password').trigger('keydown', { key: 'Tab', shiftKey: true })
    expect(active()?.id).toBe('confirm')
    // In between, the browser moves focus on its own: nothing is prevented.
    const cancel = wrapper.find<HTMLButtonElement>('#cancel')
    cancel.element.focus()
    const event = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true })
    cancel.element.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(false)
  })

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    const { wrapper, dialog, closes } = mountHarness()
    const opener = await openFromButton(wrapper)
    await wrapper.find('#password').trigger('keydown', { key: 'Escape' })
    await flushPromises()
    expect(closes.value).toBe(1)
    expect(dialog().open).toBe(false)
    expect(active()).toBe(opener)
    expect(wrapper.find('dialog').text()).toBe('')
  })

  it('closes on the browser’s own close request (cancel) and on a backdrop click, not on a click inside', async () => {
    const { wrapper, closes, open } = mountHarness()
    await openFromButton(wrapper)
    const cancel = new Event('cancel', { cancelable: true })
    wrapper.find('dialog').element.dispatchEvent(cancel)
    expect(cancel.defaultPrevented).toBe(true)
    expect(closes.value).toBe(1)

    await openFromButton(wrapper)
    await wrapper.find('p').trigger('click')
    expect(open.value).toBe(true)
    await wrapper.find('dialog').trigger('click')
    expect(closes.value).toBe(2)
  })

  it('stays open while it must not be dismissed', async () => {
    const { wrapper, dialog, closes } = mountHarness({ dismissible: false })
    await openFromButton(wrapper)
    await wrapper.find('#password').trigger('keydown', { key: 'Escape' })
    await wrapper.find('dialog').trigger('click')
    expect(closes.value).toBe(0)
    expect(dialog().open).toBe(true)
  })

  it('closed by its owner, it hands focus back too', async () => {
    const { wrapper, open, dialog } = mountHarness()
    const opener = await openFromButton(wrapper)
    open.value = false
    await flushPromises()
    expect(dialog().open).toBe(false)
    expect(active()).toBe(opener)
  })
})
