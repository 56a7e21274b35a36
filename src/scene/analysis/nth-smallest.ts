/**
 * The k-th smallest of `values` (0-based), found in place by quickselect (Hoare's partition,
 * middle pivot): a sort's value in linear time. The sky fits take medians and trimmed sums
 * of thousands of residuals for every sun and turbidity they try, where sorting would take
 * most of a detection's time. On return the k smallest values lie before index k (in no order).
 */
export function nthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}
