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

impl Model {
    /// For each type, whether it is an alias or a union on a cycle of them:
    /// one that reaches itself again through aliases and union branches,
    /// with no object type between. With `through_containers`, through
    /// arrays and maps too (a tree: such a type holds finite values, but
    /// only as a type of its own, since an alias cannot name itself);
    /// without, only through nullables (no value of it is finite). Linear in
    /// the number of types.
    pub fn alias_cycles(&self, through_containers: bool) -> Vec<bool> {
        let alias_like = |id: &TypeId| matches!(self.get(*id).kind, TypeKind::Alias(_) | TypeKind::Union(_));
        let next = |shape: &super::Shape| if through_containers { shape.named() } else { shape.direct() };
        let aliased = |id: TypeId| -> Vec<TypeId> {
            let shapes: Vec<&super::Shape> = match &self.get(id).kind {
                TypeKind::Alias(shape) => vec![shape],
                TypeKind::Union(union) => union.branches.iter().map(|branch| &branch.shape).collect(),
                _ => vec![],
            };
            shapes.into_iter().filter_map(next).filter(alias_like).collect()
        };
        let mut on_cycle = vec![false; self.types.len()];
        for component in components(self.types.len(), self.ids(), aliased) {
            if component.len() > 1 || aliased(component[0]).contains(&component[0]) {
                for id in component {
                    on_cycle[id.0] = true;
                }
            }
        }
        on_cycle
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
