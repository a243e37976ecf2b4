/**
 * Build step (`npm run build`, after tsc): writes the JSON schema of every action's and /v1 route's
 * answer, generated from the handlers' TypeScript return types, beside the compiled docs module.
 * Run as `node dist/apps/api/src/docs/response-schemas.generator.js [root]`; never imported by the app.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type CompletedConfig, createFormatter, createParser, DEFAULT_CONFIG, SchemaGenerator } from 'ts-json-schema-generator';
import ts from 'typescript';
import { JsonSchemaNode, toOpenApiSchema } from './json-schema-to-openapi';
import { handlerKey, RESPONSE_SCHEMAS_FILE, ResponseSchemas } from './response-schemas';

const REF_PREFIX = '#/components/schemas/';
const HTTP_DECORATORS = ['Get', 'Post', 'Put', 'Patch', 'Delete'];

/** One documented handler found in the sources. */
export interface HandlerDeclaration {
  controller: string;
  handler: string;
  method: ts.MethodDeclaration;
}

const decoratorName = (d: ts.Decorator) =>
  ts.isCallExpression(d.expression) && ts.isIdentifier(d.expression.expression) ? d.expression.expression.text : undefined;
const hasDecorator = (node: ts.HasDecorators, names: string[]) =>
  (ts.getDecorators(node) ?? []).some((d) => names.includes(decoratorName(d) ?? ''));

/**
 * The handlers the OpenAPI document describes, found as routesOf finds them at run time: methods
 * decorated `@Action(…)`, and methods with an HTTP decorator (`@Get()`…) in a class decorated
 * `@ConnectorAuth()`. Only files of the program outside node_modules are read.
 */
export function findHandlers(program: ts.Program): HandlerDeclaration[] {
  const found: HandlerDeclaration[] = [];
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    for (const node of file.statements) {
      if (!ts.isClassDeclaration(node) || !node.name) continue;
      const connector = hasDecorator(node, ['ConnectorAuth']);
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        if (hasDecorator(member, ['Action']) || (connector && hasDecorator(member, HTTP_DECORATORS)))
          found.push({ controller: node.name.text, handler: member.name.text, method: member });
      }
    }
  }
  return found;
}

/** `JobsActionsController.getjobs` → `JobsActions_getjobs`: the schema name of a handler's answer. */
export const answerSchemaName = (controller: string, handler: string) => `${controller.replace(/Controller$/, '')}_${handler}`;

/**
 * The resolved answer type of each handler (its return type, `Promise` unwrapped), printed as a
 * named alias; a named type from another module is printed `import("…").Name` by the checker and
 * rewritten to a namespace import, so the alias text compiles beside the sources.
 */
export function printAnswerAliases(program: ts.Program, handlers: HandlerDeclaration[], aliasFile: ts.SourceFile): string {
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter();
  const namespaces = new Map<string, string>();
  const toNamespace = (node: ts.Node): ts.Node => {
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal) && node.qualifier) {
      const module = node.argument.literal.text;
      const ns = namespaces.get(module) ?? `m${namespaces.size}`;
      namespaces.set(module, ns);
      const qualify = (name: ts.EntityName): ts.EntityName =>
        ts.isIdentifier(name)
          ? ts.factory.createQualifiedName(ts.factory.createIdentifier(ns), name.text)
          : ts.factory.createQualifiedName(qualify(name.left), name.right.text);
      return ts.factory.createTypeReferenceNode(
        qualify(node.qualifier),
        node.typeArguments?.map((a) => ts.visitNode(a, toNamespace) as ts.TypeNode),
      );
    }
    return ts.visitEachChild(node, toNamespace, undefined);
  };
  const aliases = handlers.flatMap(({ controller, handler, method }) => {
    const signature = checker.getSignatureFromDeclaration(method);
    if (!signature) throw new Error(`${controller}.${handler}: no signature`);
    const returned = checker.getReturnTypeOfSignature(signature);
    const answer = checker.getAwaitedType(returned) ?? returned;
    const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.UseFullyQualifiedType;
    // a file answer (Nest's StreamableFile) is documented by `@ActionFiles`; the JSON schema covers the rest
    // an answer serialized ahead (`JsonAnswer<T>`) is documented as its shape `T`
    const json = (answer.isUnion() ? answer.types : [answer])
      .filter((t) => !isFileAnswer(t))
      .map((t) => (t.getSymbol()?.getName() === 'JsonAnswer' ? checker.getTypeArguments(t as ts.TypeReference)[0] : t));
    // a connector route may answer only files (`POST /v1/reports`): `@ConnectorFiles` documents them, no JSON schema
    if (!json.length && hasDecorator(method, ['ConnectorFiles'])) return [];
    if (!json.length)
      throw new Error(`${controller}.${handler}: answers only files (document them with @ActionFiles, and the JSON answer too)`);
    const text = json
      .map((t) => {
        const node = checker.typeToTypeNode(t, aliasFile, flags);
        if (!node) throw new Error(`${controller}.${handler}: its return type cannot be printed`);
        return printer.printNode(ts.EmitHint.Unspecified, ts.visitNode(node, toNamespace) as ts.TypeNode, aliasFile);
      })
      .join(' | ');
    return [`export type ${answerSchemaName(controller, handler)} = ${text};`];
  });
  const imports = [...namespaces].map(([module, ns]) => `import type * as ${ns} from '${module}';`);
  return [...imports, ...aliases, 'export {};', ''].join('\n');
}

/** Whether `t` is Nest's `StreamableFile` (a file answer, not JSON). */
function isFileAnswer(t: ts.Type): boolean {
  return t.getSymbol()?.getName() === 'StreamableFile';
}

/** A compiler host that serves one in-memory file besides the disk's. */
function hostWith(options: ts.CompilerOptions, fileName: string, text: () => string): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, text(), language, true) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === fileName || fileExists.call(host, name);
  host.readFile = (name) => (name === fileName ? text() : readFile.call(host, name));
  return host;
}

/**
 * Generates the answers' schemas of the project whose tsconfig is given: one TypeScript program
 * to resolve each handler's return type into an alias (in an in-memory file beside the docs), a
 * second (reusing the first) in which ts-json-schema-generator turns the aliases and the named
 * types they use into JSON Schema, converted to OpenAPI 3.0 components.
 */
export function generateResponseSchemas(tsconfigPath: string): ResponseSchemas {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfigPath}`);
  const aliasFileName = join(dirname(tsconfigPath), 'apps/api/src/docs/__answers.generated.ts').replace(/\\/g, '/');
  let aliasText = 'export {};\n';
  const host = hostWith(parsed.options, aliasFileName, () => aliasText);
  const roots = [...parsed.fileNames, aliasFileName];
  const first = ts.createProgram(roots, parsed.options, host);
  const handlers = findHandlers(first);
  aliasText = printAnswerAliases(first, handlers, first.getSourceFile(aliasFileName)!);

  const program = ts.createProgram(roots, parsed.options, host, first);
  const aliasFile = program.getSourceFile(aliasFileName)!;
  const errors = program.getSemanticDiagnostics(aliasFile);
  if (errors.length) {
    const messages = errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    throw new Error(`the generated answer types do not compile:\n${messages}\n--- ${aliasFileName}\n${aliasText}`);
  }
  const config: CompletedConfig = {
    ...DEFAULT_CONFIG,
    skipTypeCheck: true,
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    encodeRefs: false,
  };
  const generator = new SchemaGenerator(program, createParser(program, config), createFormatter(config), config);
  const generated = generator.createSchemaFromNodes(aliasFile.statements.filter(ts.isTypeAliasDeclaration)) as JsonSchemaNode;
  const converted = toOpenApiSchema(generated, REF_PREFIX);
  return {
    handlers: Object.fromEntries(handlers.map((h) => [handlerKey(h.controller, h.handler), answerSchemaName(h.controller, h.handler)])),
    schemas: (converted.definitions ?? {}) as ResponseSchemas['schemas'],
  };
}

/** `node …/response-schemas.generator.js [root]`: writes the schemas beside this compiled module. */
function main(): void {
  const started = Date.now();
  const root = resolve(process.argv[2] ?? process.cwd());
  const schemas = generateResponseSchemas(join(root, 'tsconfig.build.json'));
  const out = join(__dirname, RESPONSE_SCHEMAS_FILE);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(schemas, null, 1)}\n`);
  const count = Object.keys(schemas.handlers).length;
  console.log(`response schemas: ${count} handlers → ${relative(root, out)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

if (require.main === module) main();
