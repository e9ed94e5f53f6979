import { createPinia } from 'pinia'
import { createApp, watch } from 'vue'
import App from './App.vue'
import './assets/main.css'
import { http, redirectOnUnauthenticated } from './lib/http'
import { i18n } from './lib/i18n'
import { browserLocale, setLocale } from './lib/locale'
import { createVisit } from './plugins/visit'
import { createAppRouter } from './router'
import { useAuthStore } from './stores/auth'

const app = createApp(App)
const pinia = createPinia()
const router = createAppRouter()

app.use(pinia)
app.use(i18n)
app.use(router)
app.use(createVisit({ http, router }))
redirectOnUnauthenticated(router, () => useAuthStore(pinia).signedOut())

// The signed-in user's language, else the browser's: the catalogue of a browser language other
// than English is there before the first paint, so no one sees the pages switch.
const auth = useAuthStore(pinia)
watch(() => auth.user?.locale, (locale) => void setLocale(locale ?? browserLocale()))
void setLocale(browserLocale()).then(() => app.mount('#app'))
