/**
 * `@app/core/testing`: test-only helpers (they load the TypeScript compiler): never imported by
 * production code, nor exported by `@app/core` or `@app/core/pure`.
 */
import { dirname, relative } from 'node:path';
import ts from 'typescript';

/**
 * The compiler's errors in `files`, type-checked with the project's `tsconfig.json` (found upward
 * from the first file), as `path:line: message` lines; an empty list when they compile. For specs
 * of types: Jest runs our specs through ts-jest with `isolatedModules`, which only transpiles, so a
 * spec that asserts something about types (a `// @ts-expect-error` above a call that must not
 * compile — unused, the directive is itself an error) asks the compiler here. One program over the
 * files and what they import: a module augmentation counts where its file is imported. Only the
 * global types of Node and Jest are loaded besides (a spec's globals), to keep it to a few seconds.
 * @throws Error when no tsconfig.json is found or it does not parse
 */
export function typeErrors(files: string[]): string[] {
  const configPath = ts.findConfigFile(dirname(files[0]), (f) => ts.sys.fileExists(f));
  if (!configPath) throw new Error(`no tsconfig.json above ${files[0]}`);
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    { noEmit: true, incremental: false, types: ['node', 'jest'] },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram(files, parsed.options);
  const root = dirname(configPath);
  return files.flatMap((file) => {
    const source = program.getSourceFile(file);
    if (!source) return [`${file}: not found`];
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1;
      return `${relative(root, file)}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  });
}
