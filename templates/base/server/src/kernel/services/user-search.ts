// The folding of the users list's search column lives next to the model that fills it, which
// imports no service: the list folds its terms with the same function.
export { SEARCH_TEXT_LENGTH, foldForSearch, searchTextOf } from '../models/user-search-text.js'
