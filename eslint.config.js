// ESLint with typescript-eslint's type-checked rules; Prettier owns formatting, so its config turns
// the stylistic rules off. `npm test` runs this with zero warnings allowed.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";
import globals from "globals";

export default tseslint.config(
  {
    ignores: ["dist/", "docs/api/", "node_modules/", "test-results/", ".skybox-local/", "**/public/", "coverage/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An unused parameter or a destructured rest sibling named with a leading underscore is deliberate.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // An abort rejects with its signal's reason, which the DOM types as `any`; passing it on as
      // it is keeps the caller's own reason (a TimeoutError, an AbortError or theirs).
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      "@typescript-eslint/only-throw-error": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // In-memory implementations of asynchronous interfaces (the proxy's store beside Redis, a
      // file writer's close) are async without awaiting, so that their errors still reject.
      "@typescript-eslint/require-await": "off",
      // `a ? b() : c()` and `ok && run()` are statements here on purpose.
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    // Tests read parsed JSON bodies and values returned from a browser page, which are `any` by
    // nature, and break typed values on purpose; the assertions that follow check their shape.
    files: ["test/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      // Fixtures pass a library's own error on as it comes (execFile's, a socket's).
      "@typescript-eslint/prefer-promise-reject-errors": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  { files: ["**/*.{js,mjs,cjs}"], ...tseslint.configs.disableTypeChecked },
  prettier,
);
