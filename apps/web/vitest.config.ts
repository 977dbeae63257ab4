import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { compileMessages } from './build/compile-messages.ts';

export default defineProject({
  plugins: [compileMessages()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
  },
});
