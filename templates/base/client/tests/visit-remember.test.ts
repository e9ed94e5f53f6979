import { mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, isRef, nextTick } from 'vue'
import { forgetRemembered, resetRemembered, useVisitRemember } from '@/plugins/visit'

beforeEach(() => forgetRemembered())

describe('useVisitRemember', () => {
  it('returns a reactive holder of the initial value’s shape', () => {
    const state = useVisitRemember('filters', { tab: 'all', open: [] as number[] })
    expect(state).toEqual({ tab: 'all', open: [] })
    state.open.push(1)
    expect(state.open).toEqual([1])
  })

  it('gives back the same state under the same key', () => {
    const first = useVisitRemember('k', { n: 1 })
    first.n = 5
    expect(useVisitRemember('k', { n: 1 }).n).toBe(5)
    expect(useVisitRemember('other', { n: 1 }).n).toBe(1)
  })

  it('outlives the component that used it, as across a navigation', async () => {
    const Panel = defineComponent({
      setup() {
        const state = useVisitRemember('panel', { collapsed: false })
        return () => h('button', { onClick: () => (state.collapsed = !state.collapsed) }, String(state.collapsed))
      },
    })
    const first = mount(Panel)
    await first.get('button').trigger('click')
    expect(first.text()).toBe('true')
    first.unmount()
    const second = mount(Panel)
    await nextTick()
    expect(second.text()).toBe('true')
  })

  it('holds primitive values in a ref', () => {
    const tab = useVisitRemember('tab', 'profile')
    expect(isRef(tab)).toBe(true)
    tab.value = 'security'
    expect(useVisitRemember('tab', 'profile').value).toBe('security')
  })

  it('does not share the initial value', () => {
    const initial = { ids: [1] }
    const state = useVisitRemember('sel', initial)
    state.ids.push(2)
    expect(initial.ids).toEqual([1])
  })

  it('starts over in place when a visit does not preserve state', () => {
    const state = useVisitRemember('draft', { text: '', extra: undefined as string | undefined })
    const tab = useVisitRemember('tab', 'a')
    const list = useVisitRemember('list', [1])
    state.text = 'hello'
    state.extra = 'x'
    tab.value = 'b'
    list.push(2)
    resetRemembered()
    expect(state).toEqual({ text: '', extra: undefined })
    expect(tab.value).toBe('a')
    expect(list).toEqual([1])
    expect(useVisitRemember('draft', { text: 'ignored' })).toBe(state)
  })
})
