/** The categories endpoint; every query key of this feature starts with it. */
export const CATEGORIES_URL = '/api/categories';
