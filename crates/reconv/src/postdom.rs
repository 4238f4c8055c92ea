//! Post-dominators on a plain directed graph (successor lists, one designated exit node).
//!
//! [`immediate_postdominators`] is the Cooper–Harvey–Kennedy iterative algorithm
//! ("A Simple, Fast Dominance Algorithm", 2001) run on the reversed graph rooted at the exit.
//! [`connect_dead_ends`] first gives every region that cannot reach the exit (an infinite
//! loop) one virtual edge to the exit, as compilers do, so that every node has a
//! post-dominator. The module knows nothing about instructions: [`crate::cfg`] builds the graph.

/// Successor lists of a graph whose nodes are `0..succs.len()`. Successor indices out of
/// range are ignored by every function of this module.
pub type Succs = [Vec<usize>];

/// For every node, whether it can reach `exit` (a backward search from `exit`).
pub fn reaches_exit(succs: &Succs, exit: usize) -> Vec<bool> {
    let n = succs.len();
    let preds = predecessors(succs);
    let mut seen = vec![false; n];
    if exit >= n {
        return seen;
    }
    seen[exit] = true;
    let mut stack = vec![exit];
    while let Some(x) = stack.pop() {
        for &p in &preds[x] {
            if !seen[p] {
                seen[p] = true;
                stack.push(p);
            }
        }
    }
    seen
}

/// Predecessor lists (each edge once per occurrence in `succs`, out-of-range edges dropped).
fn predecessors(succs: &Succs) -> Vec<Vec<usize>> {
    let n = succs.len();
    let mut preds = vec![Vec::new(); n];
    for (u, ss) in succs.iter().enumerate() {
        for &v in ss {
            if v < n {
                preds[v].push(u);
            }
        }
    }
    preds
}

/// Postorder of an iterative depth-first search from `root` over `adj`, visiting only nodes
/// with `allowed[x]` and not yet `seen`.
fn postorder_from(
    adj: &[Vec<usize>],
    root: usize,
    allowed: &[bool],
    seen: &mut [bool],
    out: &mut Vec<usize>,
) {
    let n = adj.len();
    seen[root] = true;
    let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
    while let Some(top) = stack.last_mut() {
        let (x, i) = *top;
        if let Some(&v) = adj[x].get(i) {
            top.1 += 1;
            if v < n && allowed[v] && !seen[v] {
                seen[v] = true;
                stack.push((v, 0));
            }
        } else {
            out.push(x);
            stack.pop();
        }
    }
}

/// Add virtual edges `node → exit` until every node that loops forever can reach `exit`;
/// returns the nodes that received one, in increasing order.
///
/// The nodes that cannot reach the exit ("dead ends") are closed under successors, so every
/// one of them leads into a *terminal* strongly connected component of dead ends (one that no
/// edge leaves). A terminal component that is one node without successors — a **sink**, a
/// block ending in a call that does not return — gets no edge: lanes that enter it never come
/// back, so [`immediate_postdominators`] leaves it out and a branch with one arm into it
/// reconverges where its other arm leads (a bounds check's panic, an `assert`). Every other
/// terminal component (an infinite loop) gets one edge, from its highest-numbered node. In a
/// CFG whose blocks are numbered by address that is the block at the highest address of the
/// infinite loop, usually its latch (the `j loop`), so branches inside the loop body still
/// reconverge inside the loop. Afterwards every node reaches the exit or a sink. Linear time
/// (Kosaraju's strongly connected components on the dead ends).
pub fn connect_dead_ends(succs: &mut [Vec<usize>], exit: usize) -> Vec<usize> {
    let n = succs.len();
    if exit >= n {
        return Vec::new();
    }
    let dead: Vec<bool> = reaches_exit(succs, exit).iter().map(|&r| !r).collect();
    if !dead.iter().any(|&d| d) {
        return Vec::new();
    }
    // Kosaraju, pass 1: postorder of the dead subgraph.
    let mut seen = vec![false; n];
    let mut order = Vec::new();
    for v in 0..n {
        if dead[v] && !seen[v] {
            postorder_from(succs, v, &dead, &mut seen, &mut order);
        }
    }
    // Pass 2: on reversed edges, in reverse postorder, each search is one component.
    let preds = predecessors(succs);
    let mut comp = vec![usize::MAX; n];
    let mut seen = vec![false; n];
    let mut members = Vec::new();
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for &v in order.iter().rev() {
        if !seen[v] {
            members.clear();
            postorder_from(&preds, v, &dead, &mut seen, &mut members);
            for &m in &members {
                comp[m] = comps.len();
            }
            comps.push(members.clone());
        }
    }
    // A component is terminal when no edge leaves it (every successor of a dead end is dead).
    let mut added: Vec<usize> = comps
        .iter()
        .enumerate()
        .filter(|(c, ms)| {
            ms.iter()
                .all(|&m| succs[m].iter().all(|&s| s >= n || comp[s] == *c))
        })
        .filter(|(_, ms)| ms.len() > 1 || !succs[ms[0]].is_empty())
        .filter_map(|(_, ms)| ms.iter().copied().max())
        .collect();
    added.sort_unstable();
    for &a in &added {
        succs[a].push(exit);
    }
    added
}

/// The immediate post-dominator of every node: `Some(exit)` for nodes whose nearest strict
/// post-dominator is the exit, `None` for the exit itself and for nodes that cannot reach it
/// (call [`connect_dead_ends`] first to have none of those).
///
/// Node `d` post-dominates `n` when every path from `n` to the exit passes through `d`.
pub fn immediate_postdominators(succs: &Succs, exit: usize) -> Vec<Option<usize>> {
    let n = succs.len();
    let mut ipdom: Vec<Option<usize>> = vec![None; n];
    if exit >= n {
        return ipdom;
    }
    let preds = predecessors(succs);

    // Depth-first search of the reversed graph (edges followed from a node to its CFG
    // predecessors), iteratively, recording the postorder number of each node.
    const UNSEEN: usize = usize::MAX;
    let mut po = vec![UNSEEN; n];
    let mut order = Vec::with_capacity(n); // nodes in postorder
    let mut visited = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    visited[exit] = true;
    while let Some(top) = stack.last_mut() {
        let (x, i) = *top;
        if let Some(&p) = preds[x].get(i) {
            top.1 += 1;
            if !visited[p] {
                visited[p] = true;
                stack.push((p, 0));
            }
        } else {
            po[x] = order.len();
            order.push(x);
            stack.pop();
        }
    }

    ipdom[exit] = Some(exit);
    let intersect = |ipdom: &[Option<usize>], mut a: usize, mut b: usize| -> usize {
        while a != b {
            while po[a] < po[b] {
                a = ipdom[a].unwrap_or(exit);
            }
            while po[b] < po[a] {
                b = ipdom[b].unwrap_or(exit);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        // Reverse postorder of the reversed graph, skipping the root (the exit).
        for &b in order.iter().rev().skip(1) {
            let mut new: Option<usize> = None;
            for &s in &succs[b] {
                if s >= n || ipdom[s].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => s,
                    Some(cur) => intersect(&ipdom, s, cur),
                });
            }
            if new.is_some() && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    ipdom[exit] = None;
    ipdom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond() {
        // 0 -> 1, 2; 1 -> 3; 2 -> 3; 3 -> 4 (exit)
        let g = vec![vec![1, 2], vec![3], vec![3], vec![4], vec![]];
        let ip = immediate_postdominators(&g, 4);
        assert_eq!(ip, vec![Some(3), Some(3), Some(3), Some(4), None]);
    }

    #[test]
    fn infinite_loop_gets_one_edge_from_its_top_node() {
        // 0 -> 1; 1 -> 2; 2 -> 1 (loop, no exit); 3 = exit
        let mut g = vec![vec![1], vec![2], vec![1], vec![]];
        assert_eq!(connect_dead_ends(&mut g, 3), vec![2]);
        let ip = immediate_postdominators(&g, 3);
        assert_eq!(ip, vec![Some(1), Some(2), Some(3), None]);
    }

    #[test]
    fn dead_end_chain_connects_the_terminal_loop_not_the_entry() {
        // 3 -> 0 (higher number, but not terminal); 0 -> 1 -> 0 loop; 4 = exit
        let mut g = vec![vec![1], vec![0], vec![4], vec![0], vec![]];
        assert_eq!(connect_dead_ends(&mut g, 4), vec![1]);
        assert!(reaches_exit(&g, 4).iter().all(|&b| b));
    }

    #[test]
    fn out_of_range_edges_are_ignored() {
        let g = vec![vec![1, 99], vec![]];
        assert_eq!(immediate_postdominators(&g, 1), vec![Some(1), None]);
        assert_eq!(immediate_postdominators(&g, 7), vec![None, None]);
    }
}
