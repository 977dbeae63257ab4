import { parse } from '@formatjs/icu-messageformat-parser';
import { transform } from '@formatjs/ts-transformer';
import ts from 'typescript';
import type { Plugin } from 'vite';

const SOURCE = /[\\/]src[\\/].*\.tsx?$/;
const CATALOGUE = /[\\/]src[\\/]lib[\\/]i18n[\\/]messages[\\/][a-z]{2}\.json$/;

/** A text without ICU syntax stays a string (the smallest form); anything else is parsed. */
const compile = (text: string) => (/[{}'#<]/.test(text) ? parse(text) : text);

/**
 * Parses every message when the app is built, so the browser formats without a parser: the
 * English in the code (each defineMessages entry's defaultMessage, through formatjs's TypeScript
 * transformer) and each language's catalogue (messages/<language>.json). A message that does not
 * parse fails the build, naming the file.
 */
export function compileMessages(): Plugin {
  return {
    name: 'outlay-compile-messages',
    enforce: 'pre',
    transform(code, id) {
      if (CATALOGUE.test(id)) {
        const messages = JSON.parse(code) as Record<string, string>;
        const compiled = Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, compile(text)]));
        return { code: JSON.stringify(compiled), map: null };
      }
      if (!SOURCE.test(id) || !code.includes('defaultMessage')) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ESNext,
          module: ts.ModuleKind.ESNext,
          jsx: ts.JsxEmit.Preserve,
          sourceMap: true,
          // Types go later, with the rest of the build; only the messages change here.
          verbatimModuleSyntax: false,
          isolatedModules: true,
        },
        transformers: { before: [transform({ ast: true, preserveWhitespace: true })] },
      });
      return { code: out.outputText, map: out.sourceMapText ?? null };
    },
  };
}
