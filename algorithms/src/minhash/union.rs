//! datatrove's clustering stage replayed over candidate pairs as they stream by, in datatrove's
//! pair order (band 0 first; within a band, each group of equal band hashes chained in document
//! order), holding state only for the documents some pair names; then the clusters from the unions
//! that replay made. The candidate pairs themselves come from a sort, which can spill, so memory
//! follows the documents in clusters, not the corpus.

use std::collections::HashMap;

use super::cluster::{ClusterError, DocumentCluster, UnionFind};

/// The union one pair made: the root `absorbed` was hung under the root `root`. Every document
/// a pair names is in at least one union (the first pair that names it joins its lone tree), and
/// every document but the clusters' roots is absorbed exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Union {
    pub absorbed: i64,
    pub root: i64,
}

/// datatrove's union-find over document ids, fed one candidate pair at a time.
#[derive(Debug, Default)]
pub struct PairUnion {
    node_of: HashMap<i64, u32, ahash::RandomState>,
    ids: Vec<i64>,
    forest: UnionFind,
}

impl PairUnion {
    /// Bytes held per document named by a pair: the id map's entry (with the map's spare room),
    /// the id and the forest's parent and size.
    pub const BYTES_PER_DOCUMENT: usize = 32 + 8 + UnionFind::NODE_BYTES;

    /// Replays datatrove's `union(a, b)`: the union it made, or `None` when `a` and `b` were in
    /// one cluster already (a pair of a document with itself makes none).
    pub fn add(&mut self, a: i64, b: i64) -> Result<Option<Union>, ClusterError> {
        let (a_node, b_node) = (self.node(a)?, self.node(b)?);
        Ok(self
            .forest
            .union(a_node, b_node)
            .map(|(absorbed, root)| Union {
                absorbed: self.ids[absorbed as usize],
                root: self.ids[root as usize],
            }))
    }

    /// The documents pairs have named.
    pub fn documents(&self) -> usize {
        self.ids.len()
    }

    fn node(&mut self, id: i64) -> Result<u32, ClusterError> {
        if let Some(&node) = self.node_of.get(&id) {
            return Ok(node);
        }
        let node = u32::try_from(self.ids.len())
            .ok()
            .filter(|&n| n < u32::MAX)
            .ok_or(ClusterError::TooManyDocuments(self.ids.len() + 1))?;
        self.node_of.insert(id, node);
        self.ids.push(id);
        self.forest.push();
        Ok(node)
    }
}

/// The clustered documents, in ascending id order, from the unions a replay made (in any order):
/// each cluster's root is the document no union absorbed, its size the documents under it, and the
/// clusters are numbered 0, 1, … in the order of their smallest id, as datatrove numbers them.
pub fn clusters_from_unions(unions: &[Union]) -> Result<Vec<DocumentCluster>, ClusterError> {
    let mut ids: Vec<i64> = unions.iter().flat_map(|u| [u.absorbed, u.root]).collect();
    ids.sort_unstable();
    ids.dedup();
    if u32::try_from(ids.len()).is_err() {
        return Err(ClusterError::TooManyDocuments(ids.len()));
    }
    // Every id of a union is in `ids`, so the search always finds it.
    let node = |id: i64| ids.binary_search(&id).unwrap_or_default();
    let mut parent: Vec<u32> = (0..ids.len() as u32).collect();
    for union in unions {
        let absorbed = node(union.absorbed);
        if parent[absorbed] != absorbed as u32 {
            return Err(ClusterError::AbsorbedTwice(union.absorbed));
        }
        parent[absorbed] = node(union.root) as u32;
    }
    let root = roots(&parent).map_err(|node| ClusterError::Cycle(ids[node]))?;
    let mut size = vec![0u64; ids.len()];
    for &r in &root {
        size[r as usize] += 1;
    }
    let mut cluster_of_root = vec![u32::MAX; ids.len()];
    let mut next_cluster = 0u32;
    Ok(ids
        .iter()
        .enumerate()
        .map(|(node, &id)| {
            let r = root[node] as usize;
            if cluster_of_root[r] == u32::MAX {
                cluster_of_root[r] = next_cluster;
                next_cluster += 1;
            }
            DocumentCluster {
                id,
                cluster_id: cluster_of_root[r] as u64,
                cluster_size: size[r],
                kept: r == node,
            }
        })
        .collect())
}

/// Each node's root in the forest `parent` (a root is its own parent), or a node on a cycle.
fn roots(parent: &[u32]) -> Result<Vec<u32>, usize> {
    const UNKNOWN: u32 = u32::MAX;
    let mut root = vec![UNKNOWN; parent.len()];
    let mut path = Vec::new();
    for start in 0..parent.len() {
        let mut node = start;
        while root[node] == UNKNOWN && parent[node] as usize != node {
            // A path longer than the forest has nodes goes round a cycle.
            if path.len() > parent.len() {
                return Err(node);
            }
            path.push(node);
            node = parent[node] as usize;
        }
        let found = if root[node] == UNKNOWN {
            node as u32
        } else {
            root[node]
        };
        root[node] = found;
        for visited in path.drain(..) {
            root[visited] = found;
        }
    }
    Ok(root)
}
