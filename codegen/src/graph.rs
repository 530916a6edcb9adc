//! Graph algorithms over the model's types, iterative so that a registry of
//! deep chains cannot overflow the stack.

/// The strongly connected components of a directed graph given as adjacency
/// lists (Tarjan's algorithm): for each node, the number of its component.
/// Two nodes share a number exactly when each reaches the other.
pub fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let count = edges.len();
    let mut index = vec![UNSEEN; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut component = vec![UNSEEN; count];
    let mut next_index = 0;
    let mut next_component = 0;
    // (node, position of the next edge to follow)
    let mut work: Vec<(usize, usize)> = Vec::new();
    for root in 0..count {
        if index[root] != UNSEEN {
            continue;
        }
        work.push((root, 0));
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[node] == UNSEEN {
                index[node] = next_index;
                low[node] = next_index;
                next_index += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&next) = edges[node].get(*edge) {
                *edge += 1;
                if index[next] == UNSEEN {
                    work.push((next, 0));
                } else if on_stack[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = next_component;
                    if member == node {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn cycles_share_a_component_and_chains_do_not() {
        // 0 -> 1 -> 2 -> 0 is a cycle; 3 -> 0 and 4 -> 4 (a self loop) stand apart.
        let c = components(&[vec![1], vec![2], vec![0], vec![0], vec![4]]);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] != c[0] && c[4] != c[0] && c[3] != c[4]);
        // A chain of 100,000 nodes needs no deep recursion.
        let chain: Vec<Vec<usize>> = (0..100_000).map(|n| if n + 1 < 100_000 { vec![n + 1] } else { vec![] }).collect();
        let c = components(&chain);
        assert_eq!(c.iter().collect::<std::collections::HashSet<_>>().len(), 100_000);
    }
}
