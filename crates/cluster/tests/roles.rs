//! The cluster crate's roles (its top-level modules: `coordinator`,
//! `worker`, `operator`, `remote`, `artifacts`, …) import each other
//! without a loop: every `crate::ROLE` path in a role's files is an edge,
//! and the edges must order the roles. A loop is printed with the files
//! that make each of its edges.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each edge between roles, with the files that make it.
type Edges = BTreeMap<(String, String), BTreeSet<PathBuf>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The role a file of `src` belongs to: its top folder, or its own name.
fn role_of(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    Some(name.trim_end_matches(".rs").to_owned())
}

/// The roles named by `crate::ROLE` in `text`, comments left out.
fn named_roles(text: &str) -> BTreeSet<String> {
    let mut roles = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            let preceded_by_word = code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            let name: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !preceded_by_word && !name.is_empty() {
                roles.insert(name);
            }
        }
    }
    roles
}

fn edges(src: &Path) -> (BTreeSet<String>, Edges) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut roles = BTreeSet::new();
    let mut edges = Edges::new();
    for file in files {
        let Some(from) = role_of(src, &file) else {
            continue;
        };
        if from == "lib" {
            continue;
        }
        roles.insert(from.clone());
        let text = std::fs::read_to_string(&file).unwrap();
        for to in named_roles(&text) {
            if to != from {
                edges
                    .entry((from.clone(), to))
                    .or_default()
                    .insert(file.strip_prefix(src).unwrap().to_owned());
            }
        }
    }
    (roles, edges)
}

/// A loop among `roles` along `edges`, if there is one.
fn find_loop(roles: &BTreeSet<String>, edges: &Edges) -> Option<Vec<String>> {
    fn visit(
        role: &str,
        edges: &Edges,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|r| r == role) {
            let mut cycle = path[start..].to_vec();
            cycle.push(role.to_owned());
            return Some(cycle);
        }
        if done.contains(role) {
            return None;
        }
        path.push(role.to_owned());
        for (from, to) in edges.keys() {
            if from == role
                && let Some(cycle) = visit(to, edges, path, done)
            {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(role.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    roles
        .iter()
        .find_map(|role| visit(role, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_roles_import_each_other_without_a_loop() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (roles, edges) = edges(&src);
    for role in ["coordinator", "worker", "operator", "remote", "artifacts"] {
        assert!(roles.contains(role), "no role {role} among {roles:?}");
    }
    if let Some(cycle) = find_loop(&roles, &edges) {
        let made_by: Vec<String> = cycle
            .windows(2)
            .map(|w| {
                let files = &edges[&(w[0].clone(), w[1].clone())];
                format!("{} -> {} in {files:?}", w[0], w[1])
            })
            .collect();
        panic!(
            "the roles import each other in a loop: {}\n{}",
            cycle.join(" -> "),
            made_by.join("\n")
        );
    }
}

#[test]
fn a_loop_is_found_and_a_chain_is_not() {
    let roles: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
    let edge = |from: &str, to: &str| ((from.to_owned(), to.to_owned()), BTreeSet::new());
    let chain: Edges = [edge("a", "b"), edge("b", "c")].into();
    assert_eq!(find_loop(&roles, &chain), None);
    let looped: Edges = [edge("a", "b"), edge("b", "c"), edge("c", "a")].into();
    assert_eq!(
        find_loop(&roles, &looped),
        Some(["a", "b", "c", "a"].map(String::from).to_vec())
    );
    assert_eq!(
        named_roles("use crate::worker::X; // crate::coordinator\nlet y = ajaxlab_crate::z;"),
        ["worker"].map(String::from).into()
    );
}
