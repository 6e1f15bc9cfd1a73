//! Go's `sort.Sort` (pattern-defeating quicksort, Go 1.19+) and
//! `sort.SliceStable` (insertion-sorted blocks of 20 merged by SymMerge),
//! reimplemented so that elements end up exactly where Go puts them.
//!
//! This matters because apimachinery sorts with comparators that are not
//! strict orders: `SortableSliceOfScalars` / `SortableSliceOfMaps` compare
//! `a <= b` on `%v` text (true for equal elements, so equal elements get
//! swapped), and `normalizeSliceOrder` says "less" for any pair in which an
//! element is missing from the order list. With such comparators the result
//! depends on the algorithm, not only on the comparator.
//!
//! `less(a, b)` plays Go's `Less(i, j)` for the elements at `i` and `j`.

/// `bits.Len(uint(n))`.
fn bits_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// Go's `sort.Sort(data)` with `Less` = `less`.
pub(crate) fn sort<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], mut less: F) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    let limit = bits_len(n);
    pdqsort(v, 0, n, limit, &mut less);
}

/// Go's `sort.SliceStable(data, less)`.
pub(crate) fn stable<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], mut less: F) {
    let n = v.len();
    let less = &mut less;
    let mut block = 20usize;
    let (mut a, mut b) = (0usize, block);
    while b <= n {
        insertion_sort(v, a, b, less);
        a = b;
        b += block;
    }
    insertion_sort(v, a, n, less);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(v, a, a + block, b, less);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(v, a, m, n, less);
        }
        block *= 2;
    }
}

fn insertion_sort<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, less: &mut F) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], lo: usize, hi: usize, first: usize, less: &mut F) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && less(&v[first + child], &v[first + child + 1]) {
            child += 1;
        }
        if !less(&v[first + root], &v[first + child]) {
            return;
        }
        v.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, less: &mut F) {
    let first = a;
    let hi = b - a;
    let mut i = (hi as isize - 1) / 2;
    while i >= 0 {
        sift_down(v, i as usize, hi, first, less);
        i -= 1;
    }
    let mut i = hi as isize - 1;
    while i >= 0 {
        v.swap(first, first + i as usize);
        sift_down(v, 0, i as usize, first, less);
        i -= 1;
    }
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

fn pdqsort<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], mut a: usize, mut b: usize, mut limit: usize, less: &mut F) {
    const MAX_INSERTION: usize = 12;
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(v, a, b, less);
            return;
        }
        if limit == 0 {
            heap_sort(v, a, b, less);
            return;
        }
        if !was_balanced {
            break_patterns(v, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(v, a, b, less);
        if hint == Hint::Decreasing {
            reverse_range(v, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced && was_partitioned && hint == Hint::Increasing && partial_insertion_sort(v, a, b, less) {
            return;
        }
        if a > 0 && !less(&v[a - 1], &v[pivot]) {
            a = partition_equal(v, a, b, pivot, less);
            continue;
        }
        let (mid, already) = partition(v, a, b, pivot, less);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let threshold = length / 8;
        if left < right {
            was_balanced = left >= threshold;
            pdqsort(v, a, mid, limit, less);
            a = mid + 1;
        } else {
            was_balanced = right >= threshold;
            pdqsort(v, mid + 1, b, limit, less);
            b = mid;
        }
    }
}

fn partition<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, pivot: usize, less: &mut F) -> (usize, bool) {
    v.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    while i <= j && less(&v[i], &v[a]) {
        i += 1;
    }
    while i <= j && !less(&v[j], &v[a]) {
        j -= 1;
    }
    if i > j {
        v.swap(j, a);
        return (j, true);
    }
    v.swap(i, j);
    i += 1;
    j -= 1;
    loop {
        while i <= j && less(&v[i], &v[a]) {
            i += 1;
        }
        while i <= j && !less(&v[j], &v[a]) {
            j -= 1;
        }
        if i > j {
            break;
        }
        v.swap(i, j);
        i += 1;
        j -= 1;
    }
    v.swap(j, a);
    (j, false)
}

fn partition_equal<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, pivot: usize, less: &mut F) -> usize {
    v.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    loop {
        while i <= j && !less(&v[a], &v[i]) {
            i += 1;
        }
        while i <= j && less(&v[a], &v[j]) {
            j -= 1;
        }
        if i > j {
            break;
        }
        v.swap(i, j);
        i += 1;
        j -= 1;
    }
    i
}

fn partial_insertion_sort<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, less: &mut F) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !less(&v[i], &v[i - 1]) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        v.swap(i, i - 1);
        // Shift the smaller one to the left (Go walks down to index 1).
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !less(&v[j], &v[j - 1]) {
                    break;
                }
                v.swap(j, j - 1);
                j -= 1;
            }
        }
        // Shift the greater one to the right.
        if b - i >= 2 {
            for j in i + 1..b {
                if !less(&v[j], &v[j - 1]) {
                    break;
                }
                v.swap(j, j - 1);
            }
        }
    }
    false
}

fn break_patterns<T>(v: &mut [T], a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = length as u64;
        let modulus = 1usize << bits_len(length);
        let start = a + (length / 4) * 2 - 1;
        for idx in start..=start + 2 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            v.swap(idx, a + other);
        }
    }
}

fn choose_pivot<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, less: &mut F) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0usize;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(v, i - 1, i, i + 1, &mut swaps, less);
            j = median(v, j - 1, j, j + 1, &mut swaps, less);
            k = median(v, k - 1, k, k + 1, &mut swaps, less);
        }
        j = median(v, i, j, k, &mut swaps, less);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2<T, F: FnMut(&T, &T) -> bool>(v: &[T], a: usize, b: usize, swaps: &mut usize, less: &mut F) -> (usize, usize) {
    if less(&v[b], &v[a]) {
        *swaps += 1;
        (b, a)
    } else {
        (a, b)
    }
}

fn median<T, F: FnMut(&T, &T) -> bool>(v: &[T], a: usize, b: usize, c: usize, swaps: &mut usize, less: &mut F) -> usize {
    let (a, b) = order2(v, a, b, swaps, less);
    let (b, c) = order2(v, b, c, swaps, less);
    let _ = c;
    let (_a, b) = order2(v, a, b, swaps, less);
    b
}

fn reverse_range<T>(v: &mut [T], a: usize, b: usize) {
    v[a..b].reverse();
}

fn swap_range<T>(v: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        v.swap(a + i, b + i);
    }
}

fn sym_merge<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], a: usize, m: usize, b: usize, less: &mut F) {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&v[h], &v[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = a;
        while k + 1 < i {
            v.swap(k, k + 1);
            k += 1;
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&v[m], &v[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            v.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&v[p - c], &v[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(v, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(v, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(v, mid, end, b, less);
    }
}

fn rotate<T>(v: &mut [T], a: usize, m: usize, b: usize) {
    let mut i = m - a;
    let mut j = b - m;
    while i != j {
        if i > j {
            swap_range(v, m - i, m, j);
            i -= j;
        } else {
            swap_range(v, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(v, m - i, m, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_a_sort_for_strict_comparators() {
        for n in 0..200usize {
            let mut v: Vec<u64> = (0..n as u64).map(|i| (i * 7919 + 13) % 101).collect();
            let mut expected = v.clone();
            expected.sort_unstable();
            sort(&mut v, |a, b| a < b);
            assert_eq!(v, expected, "n={n}");
            let mut w: Vec<(u64, usize)> = (0..n).map(|i| ((i as u64 * 31) % 7, i)).collect();
            let mut expected = w.clone();
            expected.sort_by_key(|x| x.0);
            stable(&mut w, |a, b| a.0 < b.0);
            assert_eq!(w, expected, "stable n={n}");
        }
    }

    #[test]
    fn non_strict_less_reverses_equal_elements_in_small_inputs() {
        // Go's insertion sort with `a <= b` swaps equal neighbours: two
        // items with the same key come out reversed.
        let mut v = vec![("a", 1), ("a", 2)];
        sort(&mut v, |x, y| x.0 <= y.0);
        assert_eq!(v, vec![("a", 2), ("a", 1)]);
        let mut v = vec![("b", 0), ("a", 1), ("a", 2), ("a", 3)];
        sort(&mut v, |x, y| x.0 <= y.0);
        assert_eq!(v, vec![("a", 3), ("a", 2), ("a", 1), ("b", 0)]);
    }

    #[test]
    fn non_strict_less_on_large_inputs_terminates_and_sorts_keys() {
        let mut v: Vec<(u8, usize)> = (0..300).map(|i| ((i % 5) as u8, i)).collect();
        sort(&mut v, |x, y| x.0 <= y.0);
        assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
    }
}
