import type { Request } from 'express'
import { negotiateLocale, type Locale } from './locales.js'
import { translator, type Translate } from './translate.js'

/** The signed-in user's language, else the browser's (`Accept-Language`); worked out only when a message needs it. */
export const requestLocale = (req: Request): Locale => req.userLocale ?? negotiateLocale(req.get('accept-language'))

/** The request's reader's messages. */
export const translatorOf = (req: Request): Translate => translator(requestLocale(req))
