/**
 * Fieldwork's own lint rules: SQL has owners (docs/architecture.md, "SQL owners").
 *
 * - `fieldwork/sql-owners`: data access (SQL text, `query`/`queryOne`/`preparedQuery` calls, TypeORM's
 *   `getRepository`/`createQueryBuilder`) appears only in repositories (`*.repository.ts`), read models
 *   (`*.read.ts`) and migrations. A repository names only tables its lib owns
 *   (`libs/database/src/table-owners.json`); a read model only reads (no INSERT/UPDATE/DELETE) and its
 *   comments name every table its SQL reads.
 * - `fieldwork/data-source-owners`: TypeORM's `DataSource` (and `@InjectDataSource`) is imported only by
 *   repositories, read models, migrations and the infrastructure files given in the rule's `allow`
 *   option (health, metrics, heartbeat, CLI, the database lib; docs/architecture.md lists them).
 *
 * Specs (`*.spec.ts`, `*.int-spec.ts`, `*.e2e-spec.ts`) and files outside `libs/` and `apps/` are not
 * checked. Both rules take `{ allow: string[] }`: path fragments (relative to the repository root) of
 * files let through.
 */
'use strict';
const path = require('node:path');
const OWNERS = require('../../libs/database/src/table-owners.json');

const ROOT = path.resolve(__dirname, '../..');

/** Uppercase SQL shapes (lowercase prose such as "select a member" never matches). */
const SQL_SHAPES = [
  /\bSELECT\b[\s\S]*?\bFROM\b/,
  /\bSELECT\s+(?:1|true|now\(\)|pg_|set_config|nextval|EXISTS\b)/,
  /\bINSERT\s+INTO\b/,
  /\bUPDATE\s+"?[a-z_][a-z0-9_]*"?\s+(?:[a-z_][a-z0-9_]*\s+)?SET\b/,
  /\bDELETE\s+FROM\b/,
  /\bON\s+CONFLICT\b/,
  /\bWITH\s+(?:RECURSIVE\s+)?"?[a-z_][a-z0-9_]*"?\s+AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?\(/,
  /\b(?:CREATE|ALTER|DROP)\s+(?:TABLE|INDEX|EXTENSION|DATABASE)\b/,
  /\bLOCK\s+TABLE\b/,
];
const WRITE_SHAPES = [/\bINSERT\s+INTO\b/, /\bUPDATE\s+"?[a-z_][a-z0-9_]*"?\s+(?:[a-z_][a-z0-9_]*\s+)?SET\b/, /\bDELETE\s+FROM\b/];
/** A table name after FROM / JOIN / INTO / UPDATE / TABLE (quoted or not, any partition suffix). */
const TABLE_REF = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|ONLY)\s+(?:ONLY\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/g;
const DATA_CALLS = new Set(['query', 'queryOne', 'preparedQuery']);
const ORM_CALLS = new Set(['getRepository', 'createQueryBuilder']);

function relPath(filename) {
  return path.relative(ROOT, path.resolve(filename)).split(path.sep).join('/');
}

/** `{ lib, kind }` of a file, or null when the rules don't apply to it. */
function classify(filename, allow) {
  const rel = relPath(filename);
  if (/\.(?:spec|int-spec|e2e-spec)\.ts$/.test(rel)) return null;
  const m = /(?:^|\/)(libs|apps)\/([a-z0-9-]+)\/src\//.exec(rel);
  if (!m) return null;
  const lib = m[1] === 'libs' ? m[2] : null;
  let kind = 'other';
  if (/\/migrations\//.test(rel)) kind = 'migration';
  else if (/\.repository\.ts$/.test(rel)) kind = 'repository';
  else if (/\.read\.ts$/.test(rel)) kind = 'read';
  else if ((allow || []).some((a) => rel.includes(a))) kind = 'allowed';
  return { rel, lib, kind };
}

/** The text of a string or template literal (template expressions as `$x`), else null. */
function literalText(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('$x');
  return null;
}

function ownedTable(name) {
  if (Object.prototype.hasOwnProperty.call(OWNERS, name)) return name;
  const base = name.replace(/_\d{6}$/, '');
  return Object.prototype.hasOwnProperty.call(OWNERS, base) ? base : null;
}

function tablesIn(sql) {
  const out = new Set();
  for (const m of sql.matchAll(TABLE_REF)) {
    const t = ownedTable(m[1]);
    if (t) out.add(t);
  }
  return out;
}

const allowSchema = [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }];

const sqlOwners = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL only in repositories (owned tables) and read models (named tables, reads only)' },
    schema: allowSchema,
    messages: {
      outside:
        'data access outside a repository or read model: move it into {{lib}}\'s <thing>.repository.ts (its own tables) or a <owner>-<what>.read.ts (another lib\'s tables)',
      notOwned: 'repository of "{{lib}}" names table "{{table}}", owned by "{{owner}}": read it in a <owner>-<what>.read.ts, or go through {{owner}}\'s service',
      readWrites: 'a read model only reads: move this write into the owning lib\'s repository',
      unnamed: 'read model reads table "{{table}}" without naming it in its docstring',
    },
  },
  create(context) {
    const opts = context.options[0] || {};
    const file = classify(context.filename, opts.allow);
    if (!file || file.kind === 'migration' || file.kind === 'allowed') return {};
    const lib = file.lib || 'the owning lib';
    const readTables = new Map();
    const check = (node) => {
      const text = literalText(node);
      if (text === null || !SQL_SHAPES.some((re) => re.test(text))) return;
      if (file.kind === 'other') {
        context.report({ node, messageId: 'outside', data: { lib } });
        return;
      }
      if (file.kind === 'repository') {
        for (const t of tablesIn(text)) {
          if (OWNERS[t] !== file.lib) context.report({ node, messageId: 'notOwned', data: { lib: file.lib, table: t, owner: OWNERS[t] } });
        }
        return;
      }
      // read model
      if (WRITE_SHAPES.some((re) => re.test(text))) context.report({ node, messageId: 'readWrites' });
      for (const t of tablesIn(text)) if (!readTables.has(t)) readTables.set(t, node);
    };
    return {
      Literal: check,
      TemplateLiteral: check,
      CallExpression(node) {
        if (file.kind !== 'other') return;
        const callee = node.callee;
        const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : null;
        if (name && ((callee.type === 'Identifier' && DATA_CALLS.has(name)) || ORM_CALLS.has(name))) context.report({ node, messageId: 'outside', data: { lib } });
      },
      'Program:exit'() {
        if (file.kind !== 'read' || readTables.size === 0) return;
        const comments = context.sourceCode.getAllComments().map((c) => c.value).join('\n');
        for (const [t, node] of readTables) {
          if (!new RegExp(`\\b${t}\\b`).test(comments)) context.report({ node, messageId: 'unnamed', data: { table: t } });
        }
      },
    };
  },
};

const dataSourceOwners = {
  meta: {
    type: 'problem',
    docs: { description: "TypeORM's DataSource only in repositories, read models, migrations and listed infrastructure" },
    schema: allowSchema,
    messages: {
      injected: 'DataSource outside a repository, read model or migration: inject {{lib}}\'s repository instead (infrastructure files are listed in docs/architecture.md and the rule\'s allow option)',
    },
  },
  create(context) {
    const opts = context.options[0] || {};
    const file = classify(context.filename, opts.allow);
    if (!file || file.kind !== 'other') return {};
    return {
      ImportDeclaration(node) {
        const from = node.source.value;
        for (const s of node.specifiers) {
          const imported = s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : null;
          if ((from === 'typeorm' && imported === 'DataSource') || (from === '@nestjs/typeorm' && imported === 'InjectDataSource')) {
            context.report({ node: s, messageId: 'injected', data: { lib: file.lib || 'the owning lib' } });
          }
        }
      },
    };
  },
};

module.exports = {
  meta: { name: 'eslint-plugin-fieldwork' },
  rules: { 'sql-owners': sqlOwners, 'data-source-owners': dataSourceOwners },
  /** exported for the rule's own spec */
  _internals: { classify, tablesIn, SQL_SHAPES },
};
