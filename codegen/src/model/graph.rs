//! The model as a graph: what each type names, and the strongly connected
//! components that decide boxing, order and cycles.

use super::{Model, TypeId, TypeKind, UnknownKeys};

impl Model {
    /// The types `id` names directly: its fields' types and typed unknown
    /// keys, or the shape it aliases. In field order; repeats kept.
    pub fn references(&self, id: TypeId) -> Vec<TypeId> {
        match &self.get(id).kind {
            TypeKind::Struct(body) => {
                let typed = match &body.unknown_keys {
                    UnknownKeys::Typed(shape) => shape.named(),
                    _ => None,
                };
                body.fields.iter().filter_map(|field| field.shape.named()).chain(typed).collect()
            }
            TypeKind::Alias(shape) => shape.named().into_iter().collect(),
            TypeKind::Union(union) => union.branches.iter().filter_map(|branch| branch.shape.named()).collect(),
            TypeKind::Enum(_) => vec![],
            TypeKind::OpenEnum(_) | TypeKind::TypedId(_) => vec![],
        }
    }
}

/// The strongly connected components of a graph over `0..count`, each
/// listed after every component it reaches, so that a type comes after the
/// types it names (Tarjan's algorithm, iterative: a chain of 100,000 types
/// must not overflow the stack). Deterministic: depth-first from `starts` in
/// order, successors in the order given; each component sorted.
pub fn components(count: usize, starts: impl IntoIterator<Item = TypeId>, successors: impl FnMut(TypeId) -> Vec<TypeId>) -> Vec<Vec<TypeId>> {
    let mut tarjan = Tarjan {
        index: vec![usize::MAX; count],
        low: vec![0; count],
        on_stack: vec![false; count],
        stack: Vec::new(),
        calls: Vec::new(),
        next: 0,
        successors,
        found: Vec::new(),
    };
    for start in starts {
        if tarjan.index[start.0] == usize::MAX {
            tarjan.run(start.0);
        }
    }
    tarjan.found
}

struct Tarjan<F> {
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    /// The depth-first path: each node, its successors, and how many were visited.
    calls: Vec<(usize, Vec<TypeId>, usize)>,
    next: usize,
    successors: F,
    found: Vec<Vec<TypeId>>,
}

impl<F: FnMut(TypeId) -> Vec<TypeId>> Tarjan<F> {
    fn enter(&mut self, node: usize) {
        self.index[node] = self.next;
        self.low[node] = self.next;
        self.next += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        let next_nodes = (self.successors)(TypeId(node));
        self.calls.push((node, next_nodes, 0));
    }

    fn run(&mut self, start: usize) {
        self.enter(start);
        while let Some((node, next_nodes, visited)) = self.calls.last_mut() {
            let node = *node;
            if let Some(&TypeId(target)) = next_nodes.get(*visited) {
                *visited += 1;
                if self.index[target] == usize::MAX {
                    self.enter(target);
                } else if self.on_stack[target] {
                    self.low[node] = self.low[node].min(self.index[target]);
                }
                continue;
            }
            self.calls.pop();
            if let Some(&(parent, ..)) = self.calls.last() {
                self.low[parent] = self.low[parent].min(self.low[node]);
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack[member] = false;
                    component.push(TypeId(member));
                    if member == node {
                        break;
                    }
                }
                component.sort();
                self.found.push(component);
            }
        }
    }
}
