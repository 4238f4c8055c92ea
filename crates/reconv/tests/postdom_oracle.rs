//! Brute-force cross-check of the post-dominator algorithm: on small random graphs, the
//! Cooper–Harvey–Kennedy result must equal the definition — `d` post-dominates `n` iff every
//! path from `n` to the exit passes `d`, tested by deleting `d` and checking whether `n` can
//! still reach the exit.

use proptest::prelude::*;
use weft_reconv::postdom::{connect_dead_ends, immediate_postdominators, reaches_exit};

/// Can `from` reach `exit` without passing `removed`?
fn reaches_without(succs: &[Vec<usize>], from: usize, exit: usize, removed: usize) -> bool {
    if from == removed {
        return false;
    }
    let mut seen = vec![false; succs.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(x) = stack.pop() {
        if x == exit {
            return true;
        }
        for &s in &succs[x] {
            if s != removed && !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    false
}

/// The set of post-dominators of every node, by the definition (`pd[n][d]`).
fn naive_postdominators(succs: &[Vec<usize>], exit: usize) -> Vec<Vec<bool>> {
    let n = succs.len();
    (0..n)
        .map(|v| {
            (0..n)
                .map(|d| d == v || !reaches_without(succs, v, exit, d))
                .collect()
        })
        .collect()
}

/// Random graph: `n` nodes, the last is the exit (no successors), up to 3 successors each.
fn graph() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (2usize..10).prop_flat_map(|n| {
        proptest::collection::vec(proptest::collection::vec(0..n, 0..3), n).prop_map(
            move |mut g| {
                g[n - 1].clear();
                for s in g.iter_mut() {
                    s.sort_unstable();
                    s.dedup();
                }
                g
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn chk_matches_definition(mut g in graph()) {
        let exit = g.len() - 1;
        let original = g.clone();
        let added = connect_dead_ends(&mut g, exit);
        // Every node now reaches the exit or a sink (a node without successors: a call that
        // does not return); infinite loops got edges. Edges were only added, each to the exit.
        let live = reaches_exit(&g, exit);
        for (v, &alive) in live.iter().enumerate() {
            if !alive {
                let sink = (0..g.len()).any(|k| {
                    k != exit && g[k].is_empty() && (k == v || reaches_without(&g, v, k, usize::MAX))
                });
                prop_assert!(sink, "dead node {} reaches no sink in {:?}", v, g);
            }
        }
        for &a in &added {
            prop_assert_eq!(g[a].last(), Some(&exit));
        }
        // No edge was added when everything already reached the exit.
        if reaches_exit(&original, exit).iter().all(|&b| b) {
            prop_assert!(added.is_empty());
        }

        let ipdom = immediate_postdominators(&g, exit);
        let pd = naive_postdominators(&g, exit);
        for (v, pd_v) in pd.iter().enumerate() {
            if !live[v] {
                // it never reaches the exit: no post-dominator
                prop_assert_eq!(ipdom[v], None);
                continue;
            }
            // Post-dominators from the tree: v and its chain of ipdoms up to the exit.
            let mut from_tree = vec![false; g.len()];
            let mut x = v;
            from_tree[x] = true;
            let mut steps = 0;
            while let Some(p) = ipdom[x] {
                from_tree[p] = true;
                x = p;
                steps += 1;
                prop_assert!(steps <= g.len(), "ipdom chain does not end");
            }
            prop_assert_eq!(x, exit, "chain of {} ends at {} not the exit", v, x);
            prop_assert_eq!(&from_tree, pd_v, "node {} in {:?}", v, g);
        }
    }

    #[test]
    fn dead_end_edges_come_from_terminal_regions(mut g in graph()) {
        // An added edge leaves a node that could not reach the exit before, and from which
        // nothing reachable could reach it either (so live code keeps its real post-dominators).
        let exit = g.len() - 1;
        let original = g.clone();
        let before = reaches_exit(&g, exit);
        let added = connect_dead_ends(&mut g, exit);
        let reach = |from: usize, to: usize| from == to || reaches_without(&original, from, to, usize::MAX);
        for &a in &added {
            prop_assert!(!before[a]);
            // a's component is terminal: everything a reaches reaches a back …
            for v in 0..original.len() {
                if reach(a, v) {
                    prop_assert!(reach(v, a), "{} reaches {} but not back in {:?}", a, v, original);
                }
            }
            // … and a is its highest-numbered node.
            for v in a + 1..original.len() {
                prop_assert!(!(reach(a, v) && reach(v, a)));
            }
        }
        // One edge per terminal component.
        for (i, &a) in added.iter().enumerate() {
            for &b in &added[i + 1..] {
                prop_assert!(!reach(a, b));
            }
        }
        let before_count = before.iter().filter(|&&b| !b).count();
        prop_assert!(added.len() <= before_count);
    }
}
