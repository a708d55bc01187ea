// Follows a run's request down through src/ with the TypeScript language service: from one function's
// parameter, every function the request is handed to, to the end of the calls. Handed: as an argument or a
// receiver, the request itself, a piece of it, an object holding either, or what a function made of them and
// returned (a plan made of the request carries it on). Only objects count (not a string, a number, an array:
// one value taken out of the request is that value, not the request). A call through an interface (a
// backend's `supports` entry, its layout) reaches every implementation, or only one backend's with `backend`.
//
// A climb is the request coming back up a layer: a call into a lower layer whose result, made of the request,
// the caller goes on with; or a callback written in the caller, touching the request, that a lower layer calls.
// docs/development.md "The request's way down" lists what this finds; test/repo/request-path.test.ts keeps the
// two equal.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { RANK, sourceFiles } from "./layers.js";

const HERE = fileURLToPath(new URL("../../", import.meta.url));

export interface Start {
  /** Under src/. */
  file: string;
  /** The function's name (a declaration's, or the variable or property an arrow is assigned to). */
  fn: string;
  param: string;
}

export interface RequestPath {
  /** The files of every function the request reaches (the start's included), under src/, sorted. */
  files: string[];
  /** `caller <- callee (returns|callback)`, each a `file:function`, sorted. */
  climbs: string[];
}

type Fn = ts.SignatureDeclaration & { body?: ts.Node };
type Taint = Set<ts.Symbol>;
interface Call {
  node: ts.CallExpression | ts.NewExpression;
  /** The arguments that hand the request. */
  args: Set<number>;
  /** The receiver is the request (a method of an object made of it): every parameter is. */
  receiver: boolean;
  /** Arrow or function arguments, written in the caller, that touch the request. */
  callbacks: number;
}
interface Summary {
  returns: boolean;
  calls: Call[];
}

// One program per tree for every path followed in a process.
const services = new Map<string, ts.LanguageService>();

function languageService(root: string): ts.LanguageService {
  const files = sourceFiles(join(root, "src"));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    types: ["node"],
  };
  return ts.createLanguageService({
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => {
      try {
        return ts.ScriptSnapshot.fromString(readFileSync(file, "utf8"));
      } catch {
        return undefined;
      }
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
}

const isFn = (node: ts.Node): node is Fn =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node);

const layerOf = (file: string): string => (file.includes("/") ? file.split("/")[0]! : file.replace(/\.ts$/, ""));
const backendOf = (file: string): string | undefined => /^backends\/([^/]+)\//.exec(file)?.[1];

function nameOf(fn: Fn): string {
  if (fn.name) return fn.name.getText();
  const parent = fn.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  const line = fn.getSourceFile().getLineAndCharacterOfPosition(fn.getStart()).line + 1;
  return `<anonymous@${line}>`;
}

export interface Following {
  /** A run of this backend only (pi's layout is Atomic's); absent, of any. */
  backend?: string;
  /** The tree whose src/ is read: this one by default. */
  root?: string;
}

/**
 * The request's path from `start`. A function is reached only where the start's module loads its file (its
 * imports, dynamic ones included, not type-only ones): the library's run never calls the CLI's code.
 */
export function followRequest(start: Start, { backend, root = HERE }: Following = {}): RequestPath {
  const srcDir = join(root, "src");
  const language = services.get(root) ?? languageService(root);
  services.set(root, language);
  const program = language.getProgram()!;
  /** Where a function is, as a path under src/. */
  const fileOf = (node: ts.Node): string => relative(srcDir, node.getSourceFile().fileName);
  const labelOf = (fn: Fn): string => `${fileOf(fn)}:${nameOf(fn)}`;
  const loaded = loadedFrom(program, join(srcDir, start.file));
  const checker = program.getTypeChecker();
  const backendFolders = new Set(
    readdirSync(join(srcDir, "backends"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
  const inSrc = (node: ts.Node): boolean => node.getSourceFile().fileName.startsWith(srcDir);
  const symbolAt = (node: ts.Node): ts.Symbol | undefined => checker.getSymbolAtLocation(node);

  /** Whether this run could call a function of this file. */
  function called(file: string): boolean {
    if (!loaded.has(join(srcDir, file))) return false;
    const folder = backendOf(file);
    if (backend === undefined || folder === undefined || !backendFolders.has(folder)) return true;
    return folder === backend || (backend === "pi" && folder === "atomic");
  }

  function nodeAt(file: ts.SourceFile, position: number): ts.Node | undefined {
    let hit: ts.Node | undefined;
    const visit = (node: ts.Node): void => {
      if (node.getStart(file) <= position && position < node.getEnd()) {
        hit = node;
        ts.forEachChild(node, visit);
      }
    };
    visit(file);
    return hit;
  }

  /** The functions a call may run: its declaration's, or each implementation of an interface member. */
  function callees(call: ts.CallExpression | ts.NewExpression): Fn[] {
    let target: ts.Expression = call.expression;
    while (ts.isParenthesizedExpression(target) || ts.isAsExpression(target) || ts.isNonNullExpression(target))
      target = target.expression;
    const at = ts.isPropertyAccessExpression(target) ? target.name : target;
    const found = new Set<Fn>();
    const add = (declaration: ts.Node | undefined): void => {
      if (!declaration || !inSrc(declaration)) return;
      let node: ts.Node | undefined = declaration;
      if (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node))
        node = node.initializer;
      if (node && ts.isClassDeclaration(node)) node = node.members.find(ts.isConstructorDeclaration);
      if (node && isFn(node) && node.body) found.add(node);
    };
    const symbol = symbolAt(at);
    const resolved = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declarations = resolved?.declarations ?? [];
    for (const declaration of declarations) add(declaration);
    if (found.size === 0 || declarations.some((d) => ts.isPropertySignature(d) || ts.isMethodSignature(d))) {
      for (const implementation of language.getImplementationAtPosition(at.getSourceFile().fileName, at.getStart()) ??
        []) {
        const file = program.getSourceFile(implementation.fileName);
        let node = file && nodeAt(file, implementation.textSpan.start);
        while (
          node &&
          !isFn(node) &&
          !ts.isPropertyAssignment(node) &&
          !ts.isMethodDeclaration(node) &&
          !ts.isVariableDeclaration(node)
        )
          node = node.parent;
        add(node);
      }
    }
    return [...found].filter((fn) => called(fileOf(fn)));
  }

  /** An object (not a function, an array, a string, a number): the request or a part of it, not one value. */
  function objectLike(expression: ts.Expression): boolean {
    const type = checker.getTypeAtLocation(expression);
    const parts = type.isUnion() ? type.types : [type];
    return parts.some(
      (part) =>
        (part.flags & (ts.TypeFlags.Object | ts.TypeFlags.NonPrimitive)) !== 0 &&
        part.getCallSignatures().length === 0 &&
        !checker.isArrayType(part) &&
        !checker.isTupleType(part),
    );
  }

  function bind(name: ts.BindingName, taint: Taint): void {
    if (ts.isIdentifier(name)) {
      const symbol = symbolAt(name);
      if (symbol) taint.add(symbol);
    } else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name, taint);
  }

  function mentions(node: ts.Node, taint: Taint): boolean {
    if (ts.isIdentifier(node)) return taint.has(symbolAt(node)!);
    return ts.forEachChild(node, (child) => mentions(child, taint) || undefined) ?? false;
  }

  /** Whether an expression is the request, a piece of it, or made of it. */
  function carries(expression: ts.Node | undefined, taint: Taint): boolean {
    const e = expression;
    if (!e) return false;
    if (ts.isIdentifier(e)) return taint.has(symbolAt(e)!);
    if (ts.isShorthandPropertyAssignment(e)) return taint.has(checker.getShorthandAssignmentValueSymbol(e)!);
    if (
      ts.isPropertyAccessExpression(e) ||
      ts.isElementAccessExpression(e) ||
      ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isAwaitExpression(e) ||
      ts.isSpreadElement(e) ||
      ts.isSpreadAssignment(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isTypeOfExpression(e)
    )
      return carries(e.expression, taint);
    if (ts.isPropertyAssignment(e)) return carries(e.initializer, taint);
    if (ts.isObjectLiteralExpression(e)) return e.properties.some((p) => carries(p, taint));
    if (ts.isArrayLiteralExpression(e)) return e.elements.some((x) => carries(x, taint));
    if (ts.isConditionalExpression(e)) return carries(e.whenTrue, taint) || carries(e.whenFalse, taint);
    if (ts.isBinaryExpression(e) && LOGICAL.has(e.operatorToken.kind))
      return carries(e.left, taint) || carries(e.right, taint);
    if (ts.isTemplateExpression(e)) return e.templateSpans.some((span) => carries(span.expression, taint));
    if (ts.isCallExpression(e) || ts.isNewExpression(e)) {
      const args = new Set<number>();
      (e.arguments ?? []).forEach((arg, i) => {
        if (carries(arg, taint)) args.add(i);
      });
      const receiver = ts.isPropertyAccessExpression(e.expression) && carries(e.expression.expression, taint);
      if (args.size === 0 && !receiver) return false;
      const targets = callees(e);
      // Outside src/ (a method of the request, Object.entries): made of it when the request went in.
      if (targets.length === 0) return true;
      return targets.some((fn) => summary(fn, receiver ? allParams(fn) : args).returns);
    }
    return false;
  }

  const handed = (e: ts.Expression, taint: Taint): boolean => objectLike(e) && carries(e, taint);
  const allParams = (fn: Fn): Set<number> => new Set(fn.parameters.map((_, i) => i));
  const enclosing = (node: ts.Node): ts.Node | undefined => {
    let parent = node.parent;
    while (parent && !isFn(parent)) parent = parent.parent;
    return parent;
  };

  /** What a function does with the request in these parameters: whether it returns it, whom it hands it to. */
  function analyse(fn: Fn, params: Set<number>): Summary {
    const taint: Taint = new Set();
    fn.parameters.forEach((param, i) => {
      if (params.has(i)) bind(param.name, taint);
    });
    // To a fixpoint: a local made of the request joins it.
    for (let before = -1; before !== taint.size; ) {
      before = taint.size;
      const visit = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && node.initializer && carries(node.initializer, taint))
          bind(node.name, taint);
        if (
          ts.isBinaryExpression(node) &&
          node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          carries(node.right, taint)
        ) {
          let target: ts.Expression = node.left;
          while (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target))
            target = target.expression;
          const symbol = symbolAt(target);
          if (symbol) taint.add(symbol);
        }
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          COLLECTING.has(node.expression.name.text) &&
          node.arguments.some((arg) => carries(arg, taint))
        ) {
          const symbol = symbolAt(node.expression.expression);
          if (symbol) taint.add(symbol);
        }
        ts.forEachChild(node, visit);
      };
      visit(fn.body!);
    }
    let returns = ts.isArrowFunction(fn) && !ts.isBlock(fn.body) && carries(fn.body, taint);
    const calls: Call[] = [];
    const visit = (node: ts.Node): void => {
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments) {
        const args = new Set<number>();
        node.arguments.forEach((arg, i) => {
          if (handed(arg, taint)) args.add(i);
        });
        const receiver = ts.isPropertyAccessExpression(node.expression) && handed(node.expression.expression, taint);
        const callbacks = node.arguments.filter(
          (arg) => (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) && mentions(arg.body, taint),
        ).length;
        if (args.size > 0 || receiver || callbacks > 0) calls.push({ node, args, receiver, callbacks });
      }
      if (ts.isReturnStatement(node) && node.expression && enclosing(node) === fn && carries(node.expression, taint))
        returns = true;
      ts.forEachChild(node, visit);
    };
    visit(fn.body!);
    return { returns, calls };
  }

  const summaries = new Map<string, Summary>();
  const inProgress = new Set<string>();
  function summary(fn: Fn, params: Set<number>): Summary {
    const key = `${labelOf(fn)}|${[...params].join(",")}|${fn.pos}`;
    const known = summaries.get(key);
    if (known) return known;
    // A recursive call is followed once.
    if (inProgress.has(key)) return { returns: false, calls: [] };
    inProgress.add(key);
    const result = analyse(fn, params);
    inProgress.delete(key);
    summaries.set(key, result);
    return result;
  }

  const file = program.getSourceFile(join(srcDir, start.file))!;
  let first: Fn | undefined;
  const find = (node: ts.Node): void => {
    if (!first && isFn(node) && nameOf(node) === start.fn) first = node;
    else ts.forEachChild(node, find);
  };
  find(file);
  if (!first) throw new Error(`no function ${start.fn} in src/${start.file}`);
  const param = first.parameters.findIndex((p) => p.name.getText() === start.param);
  if (param < 0) throw new Error(`${start.fn} has no parameter ${start.param}`);

  const reached = new Map<Fn, Set<number>>([[first, new Set([param])]]);
  const queue: [Fn, Set<number>][] = [[first, new Set([param])]];
  const climbs = new Set<string>();
  const within = (fn: Fn, caller: Fn): boolean => {
    for (let parent = fn.parent; parent; parent = parent.parent) if (parent === caller) return true;
    return false;
  };
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [caller, params] = next;
    for (const call of summary(caller, params).calls) {
      for (const target of callees(call.node)) {
        // A function written in the caller's own body is the caller's own code.
        if (within(target, caller)) continue;
        const given = call.receiver ? allParams(target) : call.args;
        if (given.size === 0 && call.callbacks === 0) continue;
        const down = RANK[layerOf(fileOf(target))]! < RANK[layerOf(fileOf(caller))]!;
        const used = !ts.isExpressionStatement(call.node.parent);
        if (down && given.size > 0 && used && summary(target, given).returns)
          climbs.add(`${labelOf(caller)} <- ${labelOf(target)} (returns)`);
        else if (down && call.callbacks > 0) climbs.add(`${labelOf(caller)} <- ${labelOf(target)} (callback)`);
        if (given.size === 0) continue;
        const seen = reached.get(target) ?? new Set<number>();
        const fresh = [...given].filter((i) => !seen.has(i));
        if (fresh.length === 0) continue;
        for (const i of fresh) seen.add(i);
        reached.set(target, seen);
        queue.push([target, new Set(seen)]);
      }
    }
  }
  return {
    files: [...new Set([...reached.keys()].map(fileOf))].sort(),
    climbs: [...climbs].sort(),
  };
}

/** The files a module loads, itself included: its imports and dynamic imports, not its type-only imports. */
function loadedFrom(program: ts.Program, start: string): Set<string> {
  const loaded = new Set<string>();
  const queue = [start];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (loaded.has(file)) continue;
    loaded.add(file);
    const source = program.getSourceFile(file);
    if (!source) continue;
    const visit = (node: ts.Node): void => {
      let specifier: ts.Expression | undefined;
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) specifier = node.moduleSpecifier;
      else if (ts.isExportDeclaration(node) && !node.isTypeOnly) specifier = node.moduleSpecifier;
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
        specifier = node.arguments[0];
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith("."))
        queue.push(join(dirname(file), specifier.text.replace(/\.js$/, ".ts")));
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return loaded;
}

const LOGICAL = new Set([
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.AmpersandAmpersandToken,
]);
/** Methods that put a value into the collection they are called on. */
const COLLECTING = new Set(["push", "set", "add", "unshift"]);
