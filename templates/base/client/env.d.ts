/// <reference types="vite/client" />

// For plain `tsc` (tsconfig.test.json); vue-tsc reads the .vue files themselves.
declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, any>
  export default component
}
