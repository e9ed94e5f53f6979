import { defineComponent, h, type PropType, type VNodeChild } from 'vue'
import { t } from '@/lib/i18n'

// A message with markup in it (a link, a <time>, a name in bold): each named slot stands for the
// placeholder of its name, wherever the translation puts it. petite-vue-i18n has no <i18n-t>, so
// each placeholder gets a marker, the translated text is cut at the markers, and the slots go in
// their places. Without `tag` the parts render with no element around them.
export default defineComponent({
  name: 'Translation',
  props: {
    keypath: { type: String, required: true },
    tag: { type: String as PropType<string | undefined>, default: undefined },
  },
  setup(props, { slots }) {
    return () => {
      const names = Object.keys(slots)
      const markers = Object.fromEntries(names.map((name, index) => [name, `\u0000${index}\u0000`]))
      const parts: VNodeChild[] = t(props.keypath, markers)
        .split(/\u0000(\d+)\u0000/)
        .map((part, index) => (index % 2 ? slots[names[Number(part)]!]!() : part))
      return props.tag ? h(props.tag, parts) : parts
    }
  },
})
