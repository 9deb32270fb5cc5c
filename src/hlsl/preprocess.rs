//! The C preprocessor as DXC (clang) runs it on HLSL: `#define` (object- and function-like, `#`,
//! `##`, `__VA_ARGS__`), `#undef`, `#include` with `#pragma once`, conditionals with integer
//! constant expressions, `#error`, and `-D` defines. Macro expansion follows the C standard's
//! hide-set algorithm, so a macro never expands inside its own expansion.
//!
//! Everything that can grow without bound on hostile input (include nesting, macro expansion,
//! argument pre-expansion, `#if` expressions) has a limit that ends preprocessing with an error
//! instead of hanging or overflowing the stack.

use super::diag::Diagnostic;
use super::lexer::{lex, parse_number};
use super::source::{FileId, SourceMap, Span};
use super::token::{HideSet, Token, TokenKind};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// Deepest `#include` nesting accepted (clang's default is 200 too).
const MAX_INCLUDE_DEPTH: usize = 200;
/// Deepest nesting of macro calls inside macro arguments, and of `#if` sub-expressions.
const MAX_NESTING: usize = 128;
/// Tokens the expansion may create in all before preprocessing stops (stops exponential macros).
const MAX_WORK: usize = 1_000_000;
/// Errors after which preprocessing stops, like clang's `-ferror-limit`.
const MAX_ERRORS: usize = 50;

/// Reads an included file: `Some(text)` when `path` names a readable file. The compiler reads
/// the file system; tests and the fuzzer pass closures over in-memory files.
pub type Loader<'a> = dyn FnMut(&Path) -> Option<String> + Send + 'a;

/// Reads `path` from the file system when it is a regular file (never a device or a directory,
/// which could block or be huge); invalid UTF-8 is replaced rather than rejected.
pub fn read_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// A `#define`d macro.
#[derive(Clone, Debug)]
struct Macro {
    /// Parameter names for a function-like macro (`__VA_ARGS__` last when variadic).
    params: Option<Vec<String>>,
    /// Whether the last parameter is `...`.
    variadic: bool,
    /// The replacement list.
    body: Vec<Token>,
}

/// One open `#if` group.
#[derive(Clone, Debug)]
struct Cond {
    /// Whether the enclosing code is being kept.
    parent: bool,
    /// Whether the current branch is being kept.
    active: bool,
    /// Whether some branch has been kept already (so later ones are skipped).
    taken: bool,
    /// Whether `#else` was seen.
    seen_else: bool,
    /// The `#if` (for "unterminated conditional").
    span: Span,
}

/// Where the next token comes from: macro expansions pushed back (a stack, next token last) in
/// front of one file's tokens (or of nothing, when expanding a macro argument).
struct Input {
    stack: Vec<Token>,
    file: Vec<Token>,
    pos: usize,
}

impl Input {
    /// An input reading `tokens` only.
    fn list(mut tokens: Vec<Token>) -> Input {
        tokens.reverse();
        Input {
            stack: tokens,
            file: Vec::new(),
            pos: 0,
        }
    }

    /// The next token, unless the input is at its end or at a directive line.
    fn peek(&self) -> Option<&Token> {
        if let Some(t) = self.stack.last() {
            return Some(t);
        }
        let t = self.file.get(self.pos)?;
        if t.kind == TokenKind::Eof || (t.bol && t.is_punct("#")) {
            return None;
        }
        Some(t)
    }

    /// Takes the next token (see [`Input::peek`]).
    fn next(&mut self) -> Option<Token> {
        if let Some(t) = self.stack.pop() {
            return Some(t);
        }
        self.peek()?;
        let t = self.file.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    /// Pushes tokens so they are read next, in order.
    fn push_front(&mut self, tokens: Vec<Token>) {
        self.stack.extend(tokens.into_iter().rev());
    }
}

/// The preprocessor's state across the main file and its includes.
pub struct Preprocessor<'a> {
    sources: &'a mut SourceMap,
    loader: &'a mut Loader<'a>,
    include_dirs: Vec<PathBuf>,
    macros: HashMap<String, Rc<Macro>>,
    once: HashSet<PathBuf>,
    diags: Vec<Diagnostic>,
    errors: usize,
    work: usize,
    halted: bool,
}

impl<'a> Preprocessor<'a> {
    /// A preprocessor that loads `#include`s through `loader`, searching `include_dirs` (`-I`)
    /// after the including file's directory.
    pub fn new(
        sources: &'a mut SourceMap,
        loader: &'a mut Loader<'a>,
        include_dirs: &[PathBuf],
    ) -> Preprocessor<'a> {
        Preprocessor {
            sources,
            loader,
            include_dirs: include_dirs.to_vec(),
            macros: HashMap::new(),
            once: HashSet::new(),
            diags: Vec::new(),
            errors: 0,
            work: 0,
            halted: false,
        }
    }

    /// Defines `name` as `value` (tokens of `value`; `-D NAME` passes `1`). A value that does not
    /// lex cleanly is still defined, as its tokens.
    pub fn define(&mut self, name: &str, value: &str) {
        let mut scratch = SourceMap::new();
        let file = scratch.add("<command line>", value);
        let mut ignored = Vec::new();
        let mut body = lex(file, value, &mut ignored);
        body.pop();
        let span = Span::default();
        for t in &mut body {
            t.span = span;
            t.bol = false;
        }
        if let Some(first) = body.first_mut() {
            first.space = false;
        }
        self.macros.insert(
            name.to_owned(),
            Rc::new(Macro {
                params: None,
                variadic: false,
                body,
            }),
        );
    }

    /// Preprocesses `file` (already in the source map; `path` is where it was read from, for
    /// `#pragma once` and for finding quoted includes next to it). Returns the tokens, ending
    /// with an end-of-input token, and every diagnostic.
    pub fn run(mut self, file: FileId, path: Option<&Path>) -> (Vec<Token>, Vec<Diagnostic>) {
        let mut out = Vec::new();
        let key = path.map(canonical);
        self.process_file(file, key.as_deref(), 0, &mut out);
        let end = u32::try_from(self.sources.text(file).len()).unwrap_or(u32::MAX);
        let mut eof = Token::new(TokenKind::Eof, "", Span::new(file, end, end));
        eof.bol = true;
        out.push(eof);
        (out, self.diags)
    }

    /// Records an error; past [`MAX_ERRORS`] preprocessing stops.
    fn error(&mut self, span: Span, message: impl Into<String>) {
        if self.halted {
            return;
        }
        self.diags.push(Diagnostic::error(span, message));
        self.errors += 1;
        if self.errors >= MAX_ERRORS {
            self.halted = true;
        }
    }

    /// Stops preprocessing with an error (a limit was hit).
    fn halt(&mut self, span: Span, message: impl Into<String>) {
        self.error(span, message);
        self.halted = true;
    }

    /// Counts work against [`MAX_WORK`]; false (and halted) once the budget is spent.
    fn spend(&mut self, n: usize, span: Span) -> bool {
        self.work = self.work.saturating_add(n);
        if self.work > MAX_WORK && !self.halted {
            self.halt(span, "macro expansion is too large (limit reached)");
        }
        !self.halted
    }

    /// Preprocesses one file into `out`; `path` is its (canonical) path when it has one.
    fn process_file(
        &mut self,
        file: FileId,
        path: Option<&Path>,
        depth: usize,
        out: &mut Vec<Token>,
    ) {
        let text = self.sources.text(file).to_owned();
        let mut lex_diags = Vec::new();
        let tokens = lex(file, &text, &mut lex_diags);
        for d in lex_diags {
            self.error(d.span, d.message);
        }
        let mut input = Input {
            stack: Vec::new(),
            file: tokens,
            pos: 0,
        };
        let mut conds: Vec<Cond> = Vec::new();
        let dir = path.and_then(Path::parent).map(Path::to_path_buf);
        while !self.halted {
            if input.stack.is_empty() {
                let Some(t) = input.file.get(input.pos) else {
                    break;
                };
                if t.kind == TokenKind::Eof {
                    break;
                }
                if t.bol && t.is_punct("#") {
                    let hash = t.span;
                    input.pos += 1;
                    let mut line = Vec::new();
                    while let Some(t) = input.file.get(input.pos) {
                        if t.bol {
                            break;
                        }
                        line.push(t.clone());
                        input.pos += 1;
                    }
                    self.directive(
                        hash,
                        line,
                        &mut conds,
                        file,
                        path,
                        dir.as_deref(),
                        depth,
                        out,
                    );
                    continue;
                }
                if !conds.last().is_none_or(|c| c.active) {
                    input.pos += 1;
                    continue;
                }
            }
            self.step(&mut input, out, 0);
        }
        if !self.halted {
            for c in conds {
                self.error(c.span, "unterminated conditional directive");
            }
        }
    }

    /// Reads one token: a macro use is replaced by its expansion (pushed back into `input`),
    /// anything else goes to `out`.
    fn step(&mut self, input: &mut Input, out: &mut Vec<Token>, nesting: usize) {
        let Some(tok) = input.next() else { return };
        if tok.kind == TokenKind::Ident && !tok.hidden(&tok.text) {
            if let Some(m) = self.macros.get(&tok.text).cloned() {
                if let Some(plain) = self.expand(tok, &m, input, nesting) {
                    out.push(plain);
                }
                return;
            }
            if tok.text == "__LINE__" || tok.text == "__FILE__" {
                let mut t = tok.clone();
                if tok.text == "__LINE__" {
                    t.kind = TokenKind::Number;
                    t.text = self.sources.line_col(tok.span).0.to_string();
                } else {
                    t.kind = TokenKind::Str;
                    t.text = quote(self.sources.name(tok.span.file));
                }
                out.push(t);
                return;
            }
        }
        out.push(tok);
    }

    /// Expands `name` (defined as `m`), pushing the result back into `input` to be rescanned.
    /// A function-like macro's name without `(` is an ordinary identifier: it is handed back.
    fn expand(
        &mut self,
        name: Token,
        m: &Macro,
        input: &mut Input,
        nesting: usize,
    ) -> Option<Token> {
        let Some(params) = &m.params else {
            if !self.spend(m.body.len() + 1, name.span) {
                return None;
            }
            let hide = add_hide(&name.hide, &name.text);
            let body = m
                .body
                .iter()
                .map(|t| at_use(t, &name, &hide))
                .collect::<Vec<_>>();
            input.push_front(body);
            return None;
        };
        if !input.peek().is_some_and(|t| t.is_punct("(")) {
            return Some(name);
        }
        input.next();
        let (args, rparen) = self.collect_args(&name, params.len(), m.variadic, input)?;
        let mut args = args;
        if args.len() == 1 && params.is_empty() && args.first().is_some_and(Vec::is_empty) {
            args.clear();
        }
        if m.variadic && args.len() + 1 == params.len() {
            args.push(Vec::new());
        }
        if args.len() != params.len() {
            self.error(
                name.span,
                format!(
                    "macro '{}' requires {} argument{}, but {} given",
                    name.text,
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
            );
            return None;
        }
        let hide = add_hide(&intersect(&name.hide, &rparen.hide), &name.text);
        let body = self.substitute(m, params, &args, &name, nesting);
        if !self.spend(body.len() + 1, name.span) {
            return None;
        }
        let body = body.iter().map(|t| at_use(t, &name, &hide)).collect();
        input.push_front(body);
        None
    }

    /// Reads a macro call's arguments after its `(`: split at top-level commas (not inside the
    /// variadic part), up to the matching `)`, which is returned too.
    fn collect_args(
        &mut self,
        name: &Token,
        nparams: usize,
        variadic: bool,
        input: &mut Input,
    ) -> Option<(Vec<Vec<Token>>, Token)> {
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let Some(t) = input.next() else {
                self.error(
                    name.span,
                    format!("unterminated argument list invoking macro '{}'", name.text),
                );
                return None;
            };
            if !self.spend(1, name.span) {
                return None;
            }
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                if depth == 0 {
                    return Some((args, t));
                }
                depth -= 1;
            } else if t.is_punct(",") && depth == 0 && !(variadic && args.len() >= nparams) {
                args.push(Vec::new());
                continue;
            }
            if let Some(a) = args.last_mut() {
                a.push(t);
            }
        }
    }

    /// The replacement list with arguments substituted, `#` stringized and `##` pasted.
    fn substitute(
        &mut self,
        m: &Macro,
        params: &[String],
        args: &[Vec<Token>],
        name: &Token,
        nesting: usize,
    ) -> Vec<Token> {
        let param = |t: &Token| {
            if t.kind == TokenKind::Ident {
                params.iter().position(|p| *p == t.text)
            } else {
                None
            }
        };
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut res: Vec<Token> = Vec::new();
        let mut placeholder = false;
        let body = &m.body;
        let mut i = 0;
        while let Some(t) = body.get(i) {
            if self.halted {
                return Vec::new();
            }
            let next = body.get(i + 1);
            if t.is_punct("#") {
                if let Some(p) = next.and_then(param) {
                    let mut s = t.clone();
                    s.kind = TokenKind::Str;
                    s.text = stringize(args.get(p).map_or(&[][..], Vec::as_slice));
                    res.push(s);
                    placeholder = false;
                    i += 2;
                    continue;
                }
            }
            if t.is_punct("##") {
                let rhs: Vec<Token> = match next {
                    Some(n) => match param(n) {
                        Some(p) => args.get(p).cloned().unwrap_or_default(),
                        None => vec![n.clone()],
                    },
                    None => Vec::new(),
                };
                i += 2;
                if placeholder || res.is_empty() {
                    placeholder = rhs.is_empty();
                    res.extend(rhs);
                    continue;
                }
                let mut rest = rhs.into_iter();
                if let Some(first) = rest.next() {
                    if let Some(lhs) = res.pop() {
                        let pasted = self.paste(&lhs, &first, name);
                        res.push(pasted);
                    }
                    res.extend(rest);
                }
                continue;
            }
            if let Some(p) = param(t) {
                let raw = args.get(p).cloned().unwrap_or_default();
                if next.is_some_and(|n| n.is_punct("##")) {
                    placeholder = raw.is_empty();
                    let mut raw = raw;
                    if let Some(f) = raw.first_mut() {
                        f.space = t.space;
                    }
                    res.extend(raw);
                } else {
                    if expanded.get(p).is_some_and(Option::is_none) {
                        let e = self.expand_list(raw, name.span, nesting + 1);
                        if let Some(slot) = expanded.get_mut(p) {
                            *slot = Some(e);
                        }
                    }
                    let mut e = expanded.get(p).cloned().flatten().unwrap_or_default();
                    if let Some(f) = e.first_mut() {
                        f.space = t.space;
                    }
                    if !self.spend(e.len(), name.span) {
                        return Vec::new();
                    }
                    res.extend(e);
                    placeholder = false;
                }
                i += 1;
                continue;
            }
            res.push(t.clone());
            placeholder = false;
            i += 1;
        }
        res
    }

    /// Fully macro-expands a token list (a macro argument or a `#if`/`#include` line).
    fn expand_list(&mut self, tokens: Vec<Token>, span: Span, nesting: usize) -> Vec<Token> {
        if nesting > MAX_NESTING {
            self.halt(span, "macro arguments are nested too deeply");
            return tokens;
        }
        let mut input = Input::list(tokens);
        let mut out = Vec::new();
        while !input.stack.is_empty() && !self.halted {
            self.step(&mut input, &mut out, nesting);
        }
        out
    }

    /// `lhs ## rhs`: the two spellings joined must lex as one token.
    fn paste(&mut self, lhs: &Token, rhs: &Token, name: &Token) -> Token {
        let text = format!("{}{}", lhs.text, rhs.text);
        let mut scratch = SourceMap::new();
        let f = scratch.add("<paste>", &text);
        let mut ignored = Vec::new();
        let toks = lex(f, &text, &mut ignored);
        let mut out = lhs.clone();
        match toks.as_slice() {
            [one, eof] if eof.kind == TokenKind::Eof && ignored.is_empty() => {
                out.kind = one.kind;
                out.text = one.text.clone();
            }
            _ => {
                self.error(
                    name.span,
                    format!("pasting formed '{text}', an invalid preprocessing token"),
                );
                out.kind = TokenKind::Other;
                out.text = text;
            }
        }
        out
    }

    /// Handles one directive line (`line` excludes the `#`).
    #[allow(clippy::too_many_arguments)]
    fn directive(
        &mut self,
        hash: Span,
        line: Vec<Token>,
        conds: &mut Vec<Cond>,
        file: FileId,
        path: Option<&Path>,
        dir: Option<&Path>,
        depth: usize,
        out: &mut Vec<Token>,
    ) {
        let active = conds.last().is_none_or(|c| c.active);
        let Some(first) = line.first() else { return };
        let name = first.text.clone();
        let span = first.span;
        let rest = line.get(1..).unwrap_or(&[]).to_vec();
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let value = active && self.condition(&name, span, rest);
                conds.push(Cond {
                    parent: active,
                    active: value,
                    taken: value || !active,
                    seen_else: false,
                    span: hash.to(span),
                });
            }
            "elif" => {
                let Some(c) = conds.last().cloned() else {
                    self.error(hash.to(span), "'#elif' without '#if'");
                    return;
                };
                if c.seen_else {
                    self.error(hash.to(span), "'#elif' after '#else'");
                }
                let value = c.parent && !c.taken && self.condition("if", span, rest);
                if let Some(top) = conds.last_mut() {
                    top.active = value;
                    top.taken |= value;
                }
            }
            "else" => {
                let Some(top) = conds.last_mut() else {
                    self.error(hash.to(span), "'#else' without '#if'");
                    return;
                };
                let again = top.seen_else;
                top.active = top.parent && !top.taken;
                top.taken = true;
                top.seen_else = true;
                if again {
                    self.error(hash.to(span), "'#else' after '#else'");
                }
            }
            "endif" => {
                if conds.pop().is_none() {
                    self.error(hash.to(span), "'#endif' without '#if'");
                }
            }
            _ if !active => {}
            "define" => self.define_directive(span, &rest),
            "undef" => match rest.first() {
                Some(t) if t.kind == TokenKind::Ident => {
                    self.macros.remove(&t.text);
                }
                _ => self.error(span, "macro name must be an identifier"),
            },
            "include" => self.include(span, rest, file, path, dir, depth, out),
            "pragma" => {
                if rest.first().is_some_and(|t| t.is_ident("once")) {
                    if let Some(p) = path {
                        self.once.insert(p.to_path_buf());
                    }
                } else if rest.first().is_some_and(|t| t.is_ident("pack_matrix")) {
                    // It changes the majorness of the matrices declared after it: passed to the
                    // parser as one token, which places it among the declarations.
                    let arg: Vec<&str> = rest[1..].iter().map(|t| t.text.as_str()).collect();
                    match arg.as_slice() {
                        ["(", m @ ("row_major" | "column_major"), ")"] => out.push(Token::new(
                            TokenKind::Other,
                            format!("{PACK_MATRIX}{m}"),
                            hash.to(span),
                        )),
                        _ => self.error(
                            hash.to(span),
                            "expected '(row_major)' or '(column_major)' after #pragma \
                             pack_matrix",
                        ),
                    }
                }
                // Other pragmas (`warning`, `message`, `def`...) say nothing about the code.
            }
            "error" => {
                let text = spell(&rest);
                let msg = if text.is_empty() {
                    "#error".to_owned()
                } else {
                    text
                };
                self.error(hash.to(span), msg);
            }
            "warning" => {
                self.diags
                    .push(Diagnostic::warning(hash.to(span), spell(&rest)));
            }
            "line" => {}
            _ if first.kind == TokenKind::Number => {}
            _ => self.error(
                hash.to(span),
                format!("invalid preprocessing directive '#{name}'"),
            ),
        }
    }

    /// Evaluates `#if`, `#ifdef` or `#ifndef`'s condition.
    fn condition(&mut self, kind: &str, span: Span, rest: Vec<Token>) -> bool {
        if kind != "if" {
            let Some(t) = rest.first().filter(|t| t.kind == TokenKind::Ident) else {
                self.error(span, "macro name must be an identifier");
                return false;
            };
            let defined = self.is_defined(&t.text);
            return defined == (kind == "ifdef");
        }
        // `defined X` and `defined(X)` are replaced before macro expansion.
        let mut toks = Vec::new();
        let mut i = 0;
        while let Some(t) = rest.get(i) {
            if t.is_ident("defined") {
                let (name, used) = match (rest.get(i + 1), rest.get(i + 2), rest.get(i + 3)) {
                    (Some(p), Some(n), Some(c))
                        if p.is_punct("(") && n.kind == TokenKind::Ident && c.is_punct(")") =>
                    {
                        (Some(n.text.clone()), 4)
                    }
                    (Some(n), _, _) if n.kind == TokenKind::Ident => (Some(n.text.clone()), 2),
                    _ => (None, 1),
                };
                let Some(name) = name else {
                    self.error(t.span, "'defined' requires an identifier");
                    return false;
                };
                let mut v = t.clone();
                v.kind = TokenKind::Number;
                v.text = if self.is_defined(&name) { "1" } else { "0" }.to_owned();
                toks.push(v);
                i += used;
                continue;
            }
            toks.push(t.clone());
            i += 1;
        }
        let toks = self.expand_list(toks, span, 0);
        if toks.is_empty() {
            self.error(span, "'#if' with no expression");
            return false;
        }
        let mut eval = Eval {
            toks: &toks,
            pos: 0,
            depth: 0,
            end: span,
        };
        match eval.expr().and_then(|v| match toks.get(eval.pos) {
            None => Ok(v),
            Some(t) => Err((
                t.span,
                format!("unexpected {} in '#if' expression", t.describe()),
            )),
        }) {
            Ok(v) => v.0 != 0,
            Err((s, msg)) => {
                self.error(s, msg);
                false
            }
        }
    }

    /// Whether `name` is a macro (the built-in `__LINE__`/`__FILE__` included).
    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || name == "__LINE__" || name == "__FILE__"
    }

    /// `#define NAME body` or `#define NAME(params) body`.
    fn define_directive(&mut self, span: Span, rest: &[Token]) {
        let Some(name) = rest.first().filter(|t| t.kind == TokenKind::Ident) else {
            self.error(
                rest.first().map_or(span, |t| t.span),
                "macro name must be an identifier",
            );
            return;
        };
        if name.text == "defined" {
            self.error(name.span, "'defined' cannot be used as a macro name");
            return;
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        if rest.get(1).is_some_and(|t| t.is_punct("(") && !t.space) {
            let mut list = Vec::new();
            i = 2;
            let mut ok = false;
            if rest.get(i).is_some_and(|t| t.is_punct(")")) {
                ok = true;
                i += 1;
            } else {
                while let Some(t) = rest.get(i) {
                    if t.kind == TokenKind::Ident && !list.contains(&t.text) {
                        list.push(t.text.clone());
                    } else if t.is_punct("...") {
                        variadic = true;
                        list.push("__VA_ARGS__".to_owned());
                    } else {
                        break;
                    }
                    i += 1;
                    match rest.get(i) {
                        Some(t) if t.is_punct(")") => {
                            ok = true;
                            i += 1;
                            break;
                        }
                        Some(t) if t.is_punct(",") && !variadic => i += 1,
                        _ => break,
                    }
                }
            }
            if !ok {
                self.error(
                    rest.get(i).map_or(name.span, |t| t.span),
                    "invalid macro parameter list",
                );
                return;
            }
            params = Some(list);
        }
        let mut body: Vec<Token> = rest.get(i..).unwrap_or(&[]).to_vec();
        if let Some(f) = body.first_mut() {
            f.space = false;
        }
        if body.first().is_some_and(|t| t.is_punct("##"))
            || (body.len() > 1 && body.last().is_some_and(|t| t.is_punct("##")))
            || (body.len() == 1 && body.first().is_some_and(|t| t.is_punct("##")))
        {
            self.error(span, "'##' cannot be at either end of a macro expansion");
            return;
        }
        if let Some(ps) = &params {
            for (k, t) in body.iter().enumerate() {
                if t.is_punct("#")
                    && !body
                        .get(k + 1)
                        .is_some_and(|n| n.kind == TokenKind::Ident && ps.contains(&n.text))
                {
                    self.error(t.span, "'#' is not followed by a macro parameter");
                    return;
                }
            }
        }
        self.macros.insert(
            name.text.clone(),
            Rc::new(Macro {
                params,
                variadic,
                body,
            }),
        );
    }

    /// `#include "file"` or `#include <file>` (or a macro expanding to either).
    #[allow(clippy::too_many_arguments)]
    fn include(
        &mut self,
        span: Span,
        rest: Vec<Token>,
        file: FileId,
        path: Option<&Path>,
        dir: Option<&Path>,
        depth: usize,
        out: &mut Vec<Token>,
    ) {
        let _ = (file, path);
        let rest = if rest
            .first()
            .is_some_and(|t| t.kind == TokenKind::Str || t.is_punct("<"))
        {
            rest
        } else {
            self.expand_list(rest, span, 0)
        };
        // Errors about the file point at its name, as clang's "file not found" does.
        let name_span = match (rest.first(), rest.iter().find(|t| t.is_punct(">"))) {
            (Some(first), Some(close)) if first.is_punct("<") => first.span.to(close.span),
            (Some(first), _) => first.span,
            (None, _) => span,
        };
        let (target, quoted) = match rest.first() {
            Some(t) if t.kind == TokenKind::Str => (
                t.text
                    .get(1..t.text.len().saturating_sub(1))
                    .unwrap_or("")
                    .to_owned(),
                true,
            ),
            Some(t) if t.is_punct("<") => {
                let mut name = String::new();
                let mut closed = false;
                for (k, t) in rest.iter().enumerate().skip(1) {
                    if t.is_punct(">") {
                        closed = true;
                        break;
                    }
                    if t.space && k > 1 {
                        name.push(' ');
                    }
                    name.push_str(&t.text);
                }
                if !closed {
                    self.error(span, "expected '>' after the '#include <' file name");
                    return;
                }
                (name, false)
            }
            _ => {
                self.error(span, "expected \"FILENAME\" or <FILENAME> after '#include'");
                return;
            }
        };
        if target.is_empty() {
            self.error(span, "empty file name in '#include'");
            return;
        }
        if depth + 1 >= MAX_INCLUDE_DEPTH {
            self.halt(span, "'#include' nested too deeply");
            return;
        }
        let mut candidates = Vec::new();
        let target_path = Path::new(&target);
        if target_path.is_absolute() {
            candidates.push(target_path.to_path_buf());
        } else {
            if quoted {
                candidates.push(dir.map_or_else(|| target_path.to_path_buf(), |d| d.join(&target)));
            }
            for d in &self.include_dirs {
                candidates.push(d.join(&target));
            }
        }
        for cand in candidates {
            let key = canonical(&cand);
            if self.once.contains(&key) {
                return;
            }
            if let Some(text) = (self.loader)(&cand) {
                let id = self.sources.add(&cand.display().to_string(), &text);
                self.process_file(id, Some(&key), depth + 1, out);
                return;
            }
        }
        self.error(name_span, format!("'{target}' file not found"));
    }
}

/// The text of the token `#pragma pack_matrix(m)` becomes, before `m`: the parser takes it out
/// of the stream (no source token can have this text).
pub const PACK_MATRIX: &str = "#pragma pack_matrix ";

/// The path `#pragma once` remembers a file by.
fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// A copy of body token `t` placed at the macro use `name`, hidden from the macros in `hide`.
fn at_use(t: &Token, name: &Token, hide: &HideSet) -> Token {
    let mut t = t.clone();
    t.span = name.span;
    t.bol = false;
    t.hide = union(&t.hide, hide);
    t
}

/// `hide ∪ {name}`.
fn add_hide(hide: &HideSet, name: &str) -> HideSet {
    let mut v = hide.as_ref().map_or_else(Vec::new, |h| h.as_ref().clone());
    if !v.iter().any(|m| m == name) {
        v.push(name.to_owned());
    }
    Some(Arc::new(v))
}

/// `a ∪ b`.
fn union(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) if Arc::ptr_eq(x, y) || y.iter().all(|m| x.contains(m)) => a.clone(),
        (Some(x), Some(y)) if x.iter().all(|m| y.contains(m)) => b.clone(),
        (Some(x), Some(y)) => {
            let mut v = x.as_ref().clone();
            for m in y.iter() {
                if !v.contains(m) {
                    v.push(m.clone());
                }
            }
            Some(Arc::new(v))
        }
    }
}

/// `a ∩ b`.
fn intersect(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (Some(x), Some(y)) => Some(Arc::new(
            x.iter().filter(|m| y.contains(m)).cloned().collect(),
        )),
        _ => None,
    }
}

/// `#arg`: the argument's spelling as a string literal (white space as one space).
fn stringize(arg: &[Token]) -> String {
    let mut s = String::new();
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && (t.space || t.bol) {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    quote(&s)
}

/// `s` as a string literal, with `"` and `\` escaped.
fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// Tokens spelled back as text (for `#error`).
fn spell(toks: &[Token]) -> String {
    let mut s = String::new();
    for (k, t) in toks.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

/// A `#if` value: the number and whether it is unsigned (C's usual arithmetic conversions).
#[derive(Clone, Copy, Debug)]
struct Value(i64, bool);

/// An error in a `#if` expression: where and why.
type EvalError = (Span, String);

/// The `#if` expression evaluator: C's integer constant expressions over 64-bit values.
struct Eval<'t> {
    toks: &'t [Token],
    pos: usize,
    depth: usize,
    end: Span,
}

impl Eval<'_> {
    /// The next token's spelling when it is a punctuator.
    fn punct(&self) -> Option<&str> {
        self.toks
            .get(self.pos)
            .filter(|t| t.kind == TokenKind::Punct)
            .map(|t| t.text.as_str())
    }

    /// Where the next token is (or the directive's end).
    fn here(&self) -> Span {
        self.toks.get(self.pos).map_or(self.end, |t| t.span)
    }

    /// `a ? b : c` and everything below it (commas are not allowed, as in C90 `#if`).
    fn expr(&mut self) -> Result<Value, EvalError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err((
                self.here(),
                "'#if' expression is nested too deeply".to_owned(),
            ));
        }
        let cond = self.binary(0)?;
        let r = if self.punct() == Some("?") {
            self.pos += 1;
            let a = self.expr()?;
            if self.punct() != Some(":") {
                return Err((self.here(), "expected ':' in '#if' expression".to_owned()));
            }
            self.pos += 1;
            let b = self.expr()?;
            if cond.0 != 0 {
                Value(a.0, a.1 || b.1)
            } else {
                Value(b.0, a.1 || b.1)
            }
        } else {
            cond
        };
        self.depth -= 1;
        Ok(r)
    }

    /// Binary operators by precedence climbing, from `||` (level 0) to `*` (level 9).
    fn binary(&mut self, level: usize) -> Result<Value, EvalError> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.punct().filter(|p| ops.contains(p)).map(str::to_owned) {
            let span = self.here();
            self.pos += 1;
            let rhs = self.binary(level + 1)?;
            lhs = apply(&op, lhs, rhs)
                .ok_or((span, "division by zero in '#if' expression".to_owned()))?;
        }
        Ok(lhs)
    }

    /// Unary operators, parentheses and literals; identifiers left after expansion are 0.
    fn unary(&mut self) -> Result<Value, EvalError> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err((self.end, "expected a value in '#if' expression".to_owned()));
        };
        self.pos += 1;
        match t.kind {
            TokenKind::Punct => {
                let op = t.text.as_str();
                match op {
                    "(" => {
                        let v = self.expr()?;
                        if self.punct() != Some(")") {
                            return Err((
                                self.here(),
                                "expected ')' in '#if' expression".to_owned(),
                            ));
                        }
                        self.pos += 1;
                        Ok(v)
                    }
                    "-" | "+" | "!" | "~" => {
                        self.depth += 1;
                        if self.depth > MAX_NESTING {
                            return Err((
                                t.span,
                                "'#if' expression is nested too deeply".to_owned(),
                            ));
                        }
                        let v = self.unary()?;
                        self.depth -= 1;
                        Ok(match op {
                            "-" => Value(v.0.wrapping_neg(), v.1),
                            "+" => v,
                            "!" => Value(i64::from(v.0 == 0), false),
                            _ => Value(!v.0, v.1),
                        })
                    }
                    _ => Err((
                        t.span,
                        format!("unexpected {} in '#if' expression", t.describe()),
                    )),
                }
            }
            TokenKind::Number => match parse_number(&t.text) {
                Ok(super::ast::Literal::Int { value, suffix }) => Ok(Value(
                    value as i64,
                    suffix.contains('u') || value > i64::MAX as u64,
                )),
                Ok(_) => Err((
                    t.span,
                    "floating-point literal in '#if' expression".to_owned(),
                )),
                Err(e) => Err((t.span, e)),
            },
            TokenKind::Char => {
                let inner = t.text.get(1..t.text.len().saturating_sub(1)).unwrap_or("");
                Ok(Value(inner.chars().last().map_or(0, |c| c as i64), false))
            }
            TokenKind::Ident => Ok(Value(i64::from(t.text == "true"), false)),
            _ => Err((
                t.span,
                format!("unexpected {} in '#if' expression", t.describe()),
            )),
        }
    }
}

/// One binary operator of `#if`; `None` for division by zero.
fn apply(op: &str, a: Value, b: Value) -> Option<Value> {
    let unsigned = a.1 || b.1;
    let (x, y) = (a.0, b.0);
    let (ux, uy) = (x as u64, y as u64);
    let v = match op {
        "||" => return Some(Value(i64::from(x != 0 || y != 0), false)),
        "&&" => return Some(Value(i64::from(x != 0 && y != 0), false)),
        "|" => x | y,
        "^" => x ^ y,
        "&" => x & y,
        "==" => return Some(Value(i64::from(x == y), false)),
        "!=" => return Some(Value(i64::from(x != y), false)),
        "<" | ">" | "<=" | ">=" => {
            let ord = if unsigned { ux.cmp(&uy) } else { x.cmp(&y) };
            let r = match op {
                "<" => ord.is_lt(),
                ">" => ord.is_gt(),
                "<=" => ord.is_le(),
                _ => ord.is_ge(),
            };
            return Some(Value(i64::from(r), false));
        }
        "<<" => x.wrapping_shl((y & 63) as u32),
        ">>" if unsigned => (ux >> (y & 63)) as i64,
        ">>" => x.wrapping_shr((y & 63) as u32),
        "+" => x.wrapping_add(y),
        "-" => x.wrapping_sub(y),
        "*" => x.wrapping_mul(y),
        "/" | "%" if y == 0 => return None,
        "/" if unsigned => (ux / uy) as i64,
        "%" if unsigned => (ux % uy) as i64,
        "/" => x.wrapping_div(y),
        _ => x.wrapping_rem(y),
    };
    Some(Value(v, unsigned))
}
