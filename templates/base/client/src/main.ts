import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import './assets/main.css'
import { http, redirectOnUnauthenticated } from './lib/http'
import { createVisit } from './plugins/visit'
import { createAppRouter } from './router'
import { useAuthStore } from './stores/auth'

const app = createApp(App)
const pinia = createPinia()
const router = createAppRouter()

app.use(pinia)
app.use(router)
app.use(createVisit({ http, router }))
redirectOnUnauthenticated(router, () => useAuthStore(pinia).signedOut())

app.mount('#app')
