//! The node tree of one YAML document with positions, as both readers
//! produce it (the fast line reader in `fast` and the saphyr path in
//! `parse`) and the decoder reads it; and the syntax error either reader's
//! caller reports. Its own file so that neither reader depends on the other.

use super::Pos;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NodeKind {
    Scalar {
        text: String,
        /// Full tag (`tag:yaml.org,2002:str`, `!`, `!foo`), `None` when untagged.
        tag: Option<String>,
        /// Written plain (unquoted, not a block scalar).
        plain: bool,
    },
    Seq(Vec<usize>),
    Map(Vec<(usize, usize)>),
    Alias {
        target: usize,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    /// First character of the node as written (its anchor or tag if any; the
    /// `|`/`>` of a block scalar; `[`/`{`; a block collection's first entry).
    pub pos: Pos,
    pub anchor: Option<String>,
}

#[derive(Debug, Default, PartialEq)]
pub(crate) struct Doc {
    pub nodes: Vec<Node>,
    pub root: Option<usize>,
    /// An explicit `...` after which the document's text goes on: go-yaml
    /// reads only the first document of what it is given.
    pub ignored_after_end: Option<Pos>,
    /// Something libyaml refuses, seen while building.
    pub(crate) violation: Option<SyntaxError>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub pos: Pos,
    /// go-yaml's message after `yaml: ` (with its `line N: ` when it has one).
    pub message: String,
    /// Whether `message` is libyaml's wording (otherwise saphyr's).
    pub exact: bool,
}
