//! Lexical scopes: a stack of name → symbol maps; inner declarations shadow outer ones.

use std::collections::HashMap;

/// A stack of scopes holding symbols of type `T`.
#[derive(Debug)]
pub struct Scopes<T> {
    stack: Vec<HashMap<String, T>>,
}

impl<T> Default for Scopes<T> {
    fn default() -> Self {
        Scopes {
            stack: vec![HashMap::new()],
        }
    }
}

impl<T> Scopes<T> {
    /// Enters a new innermost scope.
    pub fn push(&mut self) {
        self.stack.push(HashMap::new());
    }

    /// Leaves the innermost scope (the outermost one is never left).
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Declares `name` in the innermost scope; returns false if it was already declared there.
    pub fn declare(&mut self, name: &str, sym: T) -> bool {
        match self.stack.last_mut() {
            Some(top) => top.insert(name.to_owned(), sym).is_none(),
            None => false,
        }
    }

    /// Sets aside every scope but the outermost (the module's), for code that sees only
    /// module-scope names and its own (an inlined function body); [`Scopes::restore`] puts
    /// them back.
    pub fn set_aside(&mut self) -> Vec<HashMap<String, T>> {
        let saved = self.stack.split_off(1);
        self.stack.push(HashMap::new());
        saved
    }

    /// Puts back the scopes [`Scopes::set_aside`] took, leaving those made since.
    pub fn restore(&mut self, saved: Vec<HashMap<String, T>>) {
        self.stack.truncate(1);
        self.stack.extend(saved);
    }

    /// The innermost symbol named `name`.
    pub fn lookup(&self, name: &str) -> Option<&T> {
        self.stack.iter().rev().find_map(|s| s.get(name))
    }

    /// The innermost symbol named `name`, to update.
    pub fn lookup_mut(&mut self, name: &str) -> Option<&mut T> {
        self.stack.iter_mut().rev().find_map(|s| s.get_mut(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_shadow_and_end() {
        let mut s = Scopes::default();
        assert!(s.declare("a", 1));
        s.push();
        assert!(s.declare("a", 2));
        assert!(!s.declare("a", 3));
        assert_eq!(s.lookup("a"), Some(&3));
        s.pop();
        assert_eq!(s.lookup("a"), Some(&1));
    }

    #[test]
    fn set_aside_scopes_leave_only_the_module_visible() {
        let mut s = Scopes::default();
        s.declare("g", 1);
        s.push();
        s.declare("g", 2);
        s.declare("l", 3);
        let saved = s.set_aside();
        assert_eq!(s.lookup("g"), Some(&1));
        assert_eq!(s.lookup("l"), None);
        s.declare("p", 4);
        s.restore(saved);
        assert_eq!(s.lookup("g"), Some(&2));
        assert_eq!(s.lookup("l"), Some(&3));
        assert_eq!(s.lookup("p"), None);
    }
}
