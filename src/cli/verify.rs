//! `-verify`, as clang and DXC do it: the source's `expected-error {{text}}` (`-warning`,
//! `-note`; `@+N`, `@-N` or `@N` for another line; a count before the braces) and
//! `expected-no-diagnostics` comments are checked against the diagnostics the compilation
//! produced. The run succeeds when each expectation is seen on its line (a diagnostic whose
//! message contains the text) and nothing else was reported.

/// One expected or produced diagnostic: its kind (`error`, `warning`, `note`), its line in
/// the main file (0 for one about no line or another file) and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    kind: String,
    line: u32,
    text: String,
}

/// The expectations of `source`, or an error for a malformed directive; `Ok(None)` when it
/// has none at all (which `-verify` reports, as clang does).
fn expectations(source: &str) -> Result<Option<Vec<Item>>, String> {
    let mut out = Vec::new();
    let mut none = false;
    for (k, line) in source.lines().enumerate() {
        let here = k as u32 + 1;
        let mut rest = line;
        while let Some(at) = rest.find("expected-") {
            rest = &rest[at + "expected-".len()..];
            if rest.starts_with("no-diagnostics") {
                none = true;
                continue;
            }
            let Some(kind) = ["error", "warning", "note", "remark"]
                .into_iter()
                .find(|k| rest.starts_with(k))
            else {
                continue;
            };
            rest = &rest[kind.len()..];
            let mut target = here;
            if let Some(r) = rest.strip_prefix('@') {
                let end = r
                    .find(|c: char| !(c.is_ascii_digit() || c == '+' || c == '-'))
                    .unwrap_or(r.len());
                let (spec, tail) = r.split_at(end);
                let bad = || format!("line {here}: invalid line in 'expected-{kind}@{spec}'");
                target = if let Some(n) = spec.strip_prefix('+') {
                    here + n.parse::<u32>().map_err(|_| bad())?
                } else if let Some(n) = spec.strip_prefix('-') {
                    here.checked_sub(n.parse::<u32>().map_err(|_| bad())?)
                        .ok_or_else(bad)?
                } else {
                    spec.parse::<u32>().map_err(|_| bad())?
                };
                rest = tail;
            }
            let trimmed = rest.trim_start();
            let digits = trimmed
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(trimmed.len());
            let count: usize = if digits > 0 {
                trimmed[..digits].parse().unwrap_or(1)
            } else {
                1
            };
            let after = trimmed[digits..].trim_start();
            let Some(body) = after.strip_prefix("{{") else {
                return Err(format!(
                    "line {here}: expected '{{{{' after 'expected-{kind}'"
                ));
            };
            let Some(end) = body.find("}}") else {
                return Err(format!("line {here}: missing '}}}}' in 'expected-{kind}'"));
            };
            for _ in 0..count {
                out.push(Item {
                    kind: kind.to_owned(),
                    line: target,
                    text: body[..end].to_owned(),
                });
            }
            rest = &body[end + 2..];
        }
    }
    if none && !out.is_empty() {
        return Err("'expected-no-diagnostics' with other expectations".into());
    }
    Ok((none || !out.is_empty()).then_some(out))
}

/// The diagnostics of rendered output (`file:line:col: kind: message`, or `file: kind:
/// message` for one without a place), in the file named `main`.
fn produced(rendered: &str, main: &str) -> Vec<Item> {
    let mut out = Vec::new();
    for l in rendered.lines() {
        for kind in ["error", "warning", "note", "remark"] {
            let sep = format!(": {kind}: ");
            let Some(at) = l.find(&sep) else { continue };
            let (place, text) = (&l[..at], &l[at + sep.len()..]);
            // `file:line:col` (the file may itself hold colons): the last two fields.
            let mut parts = place.rsplitn(3, ':');
            let (col, line, file) = (parts.next(), parts.next(), parts.next());
            let line = match (file, line, col) {
                (Some(f), Some(n), Some(c))
                    if f == main && c.parse::<u32>().is_ok() && n.parse::<u32>().is_ok() =>
                {
                    n.parse().unwrap_or(0)
                }
                _ => 0,
            };
            out.push(Item {
                kind: kind.to_owned(),
                line,
                text: text.to_owned(),
            });
            break;
        }
    }
    out
}

/// Checks the diagnostics `rendered` (of the file named `main`, whose text is `source`)
/// against its expectations; the error lists what was expected and not seen and what was
/// seen and not expected, as clang does.
pub fn verify(source: &str, main: &str, rendered: &str) -> Result<(), String> {
    let Some(mut expected) = expectations(source).map_err(|e| format!("{main}: error: {e}"))?
    else {
        return Err(format!(
            "{main}: error: no expected directives found: consider use of \
             'expected-no-diagnostics'"
        ));
    };
    let mut unexpected = Vec::new();
    for p in produced(rendered, main) {
        match expected
            .iter()
            .position(|e| e.kind == p.kind && e.line == p.line && p.text.contains(&e.text))
        {
            Some(k) => {
                expected.remove(k);
            }
            None => unexpected.push(p),
        }
    }
    let mut report = String::new();
    let mut list = |items: &[Item], how: &str| {
        for kind in ["error", "warning", "note", "remark"] {
            let of_kind: Vec<&Item> = items.iter().filter(|i| i.kind == kind).collect();
            if of_kind.is_empty() {
                continue;
            }
            report.push_str(&format!("error: '{kind}' diagnostics {how}:\n"));
            for i in of_kind {
                let place = if i.line == 0 {
                    "(frontend)".to_owned()
                } else {
                    format!("File {main} Line {}", i.line)
                };
                report.push_str(&format!("  {place}: {}\n", i.text));
            }
        }
    };
    list(&expected, "expected but not seen");
    list(&unexpected, "seen but not expected");
    if report.is_empty() {
        Ok(())
    } else {
        Err(report.trim_end().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::verify;

    const RENDERED: &str = "t.hlsl:3:5: error: use of undeclared identifier 'x'\n  x = 1;\n    ^\n\
                            t.hlsl:5:1: warning: unknown attribute ignored\n";

    #[test]
    fn expectations_match_by_kind_line_and_text() {
        let src = "\n\n  x = 1; // expected-error {{undeclared identifier 'x'}}\n\
                   // expected-warning@+1 {{unknown attribute}}\n[nope]\n";
        assert_eq!(verify(src, "t.hlsl", RENDERED), Ok(()));
    }

    #[test]
    fn what_is_missing_or_extra_is_reported() {
        let src = "// expected-error@3 {{undeclared}}\n// expected-error@4 {{other}}\n";
        let e = verify(src, "t.hlsl", RENDERED).unwrap_err();
        assert!(
            e.contains("'error' diagnostics expected but not seen:\n  File t.hlsl Line 4: other"),
            "{e}"
        );
        assert!(e.contains("'warning' diagnostics seen but not expected:\n  File t.hlsl Line 5: unknown attribute ignored"), "{e}");
    }

    #[test]
    fn no_diagnostics_and_no_directives() {
        assert_eq!(verify("// expected-no-diagnostics\n", "t.hlsl", ""), Ok(()));
        assert!(verify("// expected-no-diagnostics\n", "t.hlsl", RENDERED).is_err());
        let e = verify("int x;\n", "t.hlsl", "").unwrap_err();
        assert!(e.contains("no expected directives found"), "{e}");
        assert!(verify("// expected-error {{a}\n", "t.hlsl", "").is_err());
        assert!(verify("// expected-error@-9 {{a}}\n", "t.hlsl", "").is_err());
    }
}
