//! The generator-id registry of `spir-v.xml` (`<ids type="vendor">`), read with a tiny scanner:
//! the file is flat, regular XML and a full XML parser would be the only new dependency.

use crate::model::Tool;

fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!("{name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(unescape(&tag[start..end]))
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Every `<id value=".." vendor=".." tool=".."/>` inside `<ids type="vendor">`.
pub fn tools(xml: &str) -> Vec<Tool> {
    let Some(start) = xml.find("<ids type=\"vendor\"") else {
        return Vec::new();
    };
    let section = &xml[start..];
    let section = &section[..section.find("</ids>").unwrap_or(section.len())];
    let mut out = Vec::new();
    for piece in section.split("<id ").skip(1) {
        let tag = &piece[..piece.find("/>").unwrap_or(piece.len())];
        let (Some(value), Some(vendor)) = (attr(tag, "value"), attr(tag, "vendor")) else {
            continue;
        };
        if let Ok(id) = value.trim().parse() {
            out.push(Tool {
                id,
                vendor,
                tool: attr(tag, "tool"),
            });
        }
    }
    out
}
