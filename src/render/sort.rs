//! Helm's kind orders and its stable sort by kind.
//! helm: pkg/release/v1/util/kind_sorter.go

/// The order Helm installs (and upgrades) objects in: `InstallOrder`.
pub const INSTALL_ORDER: &[&str] = &[
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
];

/// The order Helm uninstalls in: `UninstallOrder` (not the reverse of
/// [`INSTALL_ORDER`]: webhooks first, Service before the workloads).
pub const UNINSTALL_ORDER: &[&str] = &[
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "APIService",
    "Ingress",
    "IngressClass",
    "Service",
    "CronJob",
    "Job",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "Deployment",
    "ReplicaSet",
    "ReplicationController",
    "Pod",
    "DaemonSet",
    "RoleBindingList",
    "RoleBinding",
    "RoleList",
    "Role",
    "ClusterRoleBindingList",
    "ClusterRoleBinding",
    "ClusterRoleList",
    "ClusterRole",
    "CustomResourceDefinition",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "StorageClass",
    "ConfigMap",
    "SecretList",
    "Secret",
    "ServiceAccount",
    "PodDisruptionBudget",
    "PodSecurityPolicy",
    "LimitRange",
    "ResourceQuota",
    "NetworkPolicy",
    "Namespace",
    "PriorityClass",
];

/// Sorts `items` by kind as Helm's `lessByKind` under `sort.SliceStable`:
/// known kinds by their place in `order`, then unknown kinds by kind name
/// (byte order, so `""` first); equal kinds keep their input order. Kinds
/// match case-sensitively; the API group plays no part.
pub fn sort_by_kind<T>(items: &mut [T], order: &[&str], kind: impl Fn(&T) -> &str) {
    // A key sort is the same total preorder as lessByKind, and Rust's sort is stable.
    items.sort_by(|a, b| rank(kind(a), order).cmp(&rank(kind(b), order)));
}

fn rank<'a>(kind: &'a str, order: &[&str]) -> (bool, usize, &'a str) {
    match order.iter().position(|k| *k == kind) {
        Some(i) => (false, i, ""),
        None => (true, 0, kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Helm's TestKindSorter data: one letter per kind, and the strings the
    /// two orders must spell.
    const KINDS: &[(&str, &str)] = &[
        ("U", "IngressClass"),
        ("E", "SecretList"),
        ("i", "ClusterRole"),
        ("I", "ClusterRoleList"),
        ("j", "ClusterRoleBinding"),
        ("J", "ClusterRoleBindingList"),
        ("f", "ConfigMap"),
        ("u", "CronJob"),
        ("2", "CustomResourceDefinition"),
        ("n", "DaemonSet"),
        ("r", "Deployment"),
        ("!", "HonkyTonkSet"),
        ("v", "Ingress"),
        ("t", "Job"),
        ("c", "LimitRange"),
        ("a", "Namespace"),
        ("A", "NetworkPolicy"),
        ("g", "PersistentVolume"),
        ("h", "PersistentVolumeClaim"),
        ("o", "Pod"),
        ("3", "PodDisruptionBudget"),
        ("C", "PodSecurityPolicy"),
        ("q", "ReplicaSet"),
        ("p", "ReplicationController"),
        ("b", "ResourceQuota"),
        ("k", "Role"),
        ("K", "RoleList"),
        ("l", "RoleBinding"),
        ("L", "RoleBindingList"),
        ("e", "Secret"),
        ("m", "Service"),
        ("d", "ServiceAccount"),
        ("s", "StatefulSet"),
        ("1", "StorageClass"),
        ("w", "APIService"),
        ("x", "HorizontalPodAutoscaler"),
        ("F", "PriorityClass"),
        ("M", "MutatingWebhookConfiguration"),
        ("V", "ValidatingWebhookConfiguration"),
    ];

    fn spell(items: &[(&str, &str)]) -> String {
        items.iter().map(|(n, _)| *n).collect()
    }

    #[test]
    fn install_order_spells_helms_expected_sequence_with_unknown_kinds_last() {
        let mut items = KINDS.to_vec();
        sort_by_kind(&mut items, INSTALL_ORDER, |(_, k)| k);
        assert_eq!(spell(&items), "FaAbcC3deEf1gh2iIjJkKlLmnopqrxstuUvwMV!");
    }

    #[test]
    fn uninstall_order_spells_helms_expected_sequence() {
        let mut items = KINDS.to_vec();
        sort_by_kind(&mut items, UNINSTALL_ORDER, |(_, k)| k);
        assert_eq!(spell(&items), "VMwvUmutsxrqponLlKkJjIi2hg1fEed3CcbAaF!");
    }

    #[test]
    fn equal_kinds_keep_input_order_and_unknown_kinds_sort_by_name() {
        // Helm's TestKindSorterKeepOriginalOrder.
        let mut items = vec![
            ("a", "ClusterRole"),
            ("A", "ClusterRole"),
            ("0", "ConfigMap"),
            ("1", "ConfigMap"),
            ("z", "ClusterRoleBinding"),
            ("!", "ClusterRoleBinding"),
            ("u2", "Unknown"),
            ("u1", "Unknown"),
            ("t3", "Unknown2"),
        ];
        sort_by_kind(&mut items, INSTALL_ORDER, |(_, k)| k);
        assert_eq!(spell(&items), "01aAz!u2u1t3");
    }

    #[test]
    fn unknown_kinds_compare_bytewise_so_empty_and_uppercase_come_first() {
        let mut items = vec![("x", "foo"), ("y", "Zed"), ("z", ""), ("w", "Pod")];
        sort_by_kind(&mut items, INSTALL_ORDER, |(_, k)| k);
        assert_eq!(spell(&items), "wzyx");
    }

    #[test]
    fn kinds_match_case_sensitively() {
        let mut items = vec![("a", "configmap"), ("b", "ConfigMap")];
        sort_by_kind(&mut items, INSTALL_ORDER, |(_, k)| k);
        assert_eq!(spell(&items), "ba");
    }
}
