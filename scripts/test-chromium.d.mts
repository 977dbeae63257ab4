/** The browser for the browser tests (see test-chromium.mjs). */
export declare const TEST_CHROMIUM: string;
