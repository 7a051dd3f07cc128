/**
 * The directions imports may take between the product's folders, checked on every file (`npm run check`, and
 * test/build/boundaries.test.ts). New files need no entry here: rules are per folder, the page's allow-list is by
 * path pattern.
 *
 *   node --import tsx main/build/boundaries.ts [--root <dir>]   prints each forbidden import; exit 1 if there is one
 *
 * A file belongs to the longest folder of folderRules its path starts with (main/cli/serve.ts to main/cli, not
 * main). A folder may always import its own modules; a folder it may not import is forbidden with every folder
 * under it (`main` includes main/cli and main/build).
 *
 * - local-api/ (the service) runs without the shell, the page, the preload and the command line.
 * - renderer/ (the page) runs in a browser: of the service it may import only pure rules and schemas, and what
 *   those import at run time must be pure too (other service modules of the same kind, zod; no Node module).
 *   Nothing of main/.
 * - preload/ is sandboxed and requires nothing but electron: not the service, anything of main/ or the page.
 * - main/ (the shell) may use the service and the preload's contract, not the page, the command line (main/cli/)
 *   or the build tools (main/build/).
 * - main/cli/ (the command line) may use the shell, the service and the build tools, not the page's sources.
 * - main/build/ (the build tools) only itself.
 * - No import cycles, but the ones listed in knownCycles, each with its reason.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { filesUnder } from './fresh.mjs';
import { repoRoot } from './paths.ts';

interface FolderRule {
  mayNotImport: readonly string[];
  why: string;
}

export const folderRules: Readonly<Record<string, FolderRule>> = {
  'local-api': {
    mayNotImport: ['main', 'renderer', 'preload'],
    why: 'the service runs without the shell, the page and the command line',
  },
  renderer: {
    mayNotImport: ['main', 'local-api'],
    why: 'the page runs in a browser; of the service it may use only pure rules and schemas (pageMayUse)',
  },
  preload: {
    mayNotImport: ['local-api', 'main', 'renderer'],
    why: 'the sandboxed preload requires nothing but electron',
  },
  main: {
    mayNotImport: ['renderer', 'main/cli', 'main/build'],
    why: 'the shell runs the built service and page, not their tools',
  },
  'main/cli': { mayNotImport: ['renderer'], why: 'the command line serves the built page, never its sources' },
  'main/build': {
    mayNotImport: ['local-api', 'main', 'renderer', 'preload'],
    why: 'the build tools run before anything is built',
  },
};

/**
 * The service's modules the page may import: its pure rules, the schemas, contracts, rules and values of a resource,
 * and the roles (credentials/caller.ts, which imports nothing): the console asks only for what its person's role reads.
 */
export const pageMayUse: readonly RegExp[] = [
  /^local-api\/rules\/[^/]+\.ts$/,
  /^local-api\/credentials\/caller\.ts$/,
  /^local-api\/[^/]+\/(schema|rules|values|contract)\.ts$/,
];

/** What a module the page takes from the service may import at run time, besides such modules. */
const purePackages = new Set(['zod']);

/**
 * Cycles that exist and why, until they are broken; any other cycle is a problem. Each is the set of its modules.
 */
export const knownCycles: readonly { modules: readonly string[]; why: string }[] = [
  {
    modules: [
      'local-api/privacy/personal-data.ts',
      'local-api/privacy/store.ts',
      'local-api/visitors/store.ts',
      'local-api/visits/store.ts',
    ],
    why: 'erasure: privacy/ presents the rows of visits and visitors, whose stores settle erasures through privacy/store.ts',
  },
];

interface Import {
  from: string;
  /** A repository path for a relative import, else the package or `node:` module. */
  to: string;
  typeOnly: boolean;
}

const sourcePattern = /\.(ts|tsx|mts|mjs)$/;

function importsOf(root: string, file: string, known: ReadonlySet<string>): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) {
      found.push({ from: file, to: specifier, typeOnly });
      return;
    }
    const base = relative(root, resolve(root, dirname(file), specifier))
      .split('\\')
      .join('/');
    const to = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => base + end).find((path) => known.has(path));
    found.push({ from: file, to: to ?? base, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The folders of folderRules, longest first: a path belongs to the first that holds it (main/cli before main). */
const foldersLongestFirst = Object.keys(folderRules).sort((a, b) => b.length - a.length);

/** The folder of folderRules a path belongs to, or undefined for one outside them (a package, a test). */
const folderOf = (path: string) => foldersLongestFirst.find((folder) => path.startsWith(`${folder}/`));

/** The folder of `rule` that forbids importing from `target`: `target` itself or a folder above it. */
const forbiddenBy = (rule: FolderRule, target: string) =>
  rule.mayNotImport.find((folder) => target === folder || target.startsWith(`${folder}/`));

/** Every problem found under `root`, one line each; none when the imports keep to the rules. */
export function checkBoundaries(root = repoRoot): string[] {
  const topFolders = new Set(Object.keys(folderRules).map((folder) => folder.split('/')[0] ?? folder));
  const files = [...topFolders]
    .flatMap((folder) => {
      try {
        return filesUnder(root, folder);
      } catch {
        return [];
      }
    })
    .filter((path) => sourcePattern.test(path) && !path.endsWith('.d.mts'));
  const known = new Set(files);
  const imports = new Map(files.map((file) => [file, importsOf(root, file, known)]));
  const problems: string[] = [];

  for (const [file, list] of imports) {
    const from = folderOf(file);
    const rule = from === undefined ? undefined : folderRules[from];
    for (const { to } of list) {
      const target = folderOf(to);
      if (!rule || !known.has(to) || target === undefined || target === from) continue;
      const forbidden = forbiddenBy(rule, target);
      if (forbidden === undefined) continue;
      if (from === 'renderer' && target === 'local-api' && pageMayUse.some((pattern) => pattern.test(to))) continue;
      problems.push(`${file} imports ${to}: ${from}/ may not import ${forbidden}/ (${rule.why})`);
    }
  }

  // What the page takes from the service, and everything that takes at run time, must be pure.
  const reached = new Set<string>();
  const pending = [...imports]
    .filter(([file]) => folderOf(file) === 'renderer')
    .flatMap(([, list]) => list.filter((i) => !i.typeOnly && folderOf(i.to) === 'local-api').map((i) => i.to));
  for (let module = pending.pop(); module !== undefined; module = pending.pop()) {
    if (reached.has(module)) continue;
    reached.add(module);
    for (const { to, typeOnly } of imports.get(module) ?? []) {
      if (typeOnly) continue;
      if (known.has(to)) {
        if (pageMayUse.some((pattern) => pattern.test(to))) pending.push(to);
        else problems.push(`${module} imports ${to}: the page runs ${module}, which may only import pure modules`);
      } else if (!purePackages.has(to.split('/')[0] ?? to)) {
        problems.push(`${module} imports ${to}: the page runs ${module}, which may not import Node or other packages`);
      }
    }
  }

  for (const cycle of cycles(imports, known)) {
    const allowed = knownCycles.some(
      (entry) => entry.modules.length === cycle.length && entry.modules.every((module) => cycle.includes(module)),
    );
    if (!allowed) problems.push(`import cycle: ${cycle.join(' → ')} → ${cycle[0]}`);
  }
  return problems;
}

/** The strongly connected components of more than one module (Tarjan), each as its sorted modules. */
function cycles(imports: ReadonlyMap<string, Import[]>, known: ReadonlySet<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module) ?? 0);
    stack.push(module);
    onStack.add(module);
    for (const { to } of imports.get(module) ?? []) {
      if (!known.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(module, Math.min(low.get(module) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(module, Math.min(low.get(module) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1) found.push(component.sort());
  };
  for (const module of imports.keys()) if (!index.has(module)) connect(module);
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? resolve(process.argv[at + 1] ?? '.') : repoRoot;
  const problems = checkBoundaries(root);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`${problems.length} forbidden import(s): see main/build/boundaries.ts for the rules\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write('Imports keep to the folders’ boundaries.\n');
  }
}
