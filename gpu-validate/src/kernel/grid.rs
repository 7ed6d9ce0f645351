//! Inputs the kernel decodes on the device (Tempo's decoding of an instance number into its
//! inputs): when a launch's instances are exactly a product of per-parameter value lists, numbered
//! with the first parameter's index least significant (how `generate` numbers instances of
//! primitive parameters), the launch copies the lists, not the instances, and each thread decodes
//! its instance's argument words from its number (`CF_DECODE`, `grid_arguments` in `interp.cu`).

use std::collections::HashSet;

/// Per parameter, its values' argument words, in digit order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputGrid {
    parameters: Vec<Vec<Vec<u32>>>,
}

impl InputGrid {
    /// The grid whose numbering from 0 gives exactly `instances` (each its parameters' argument
    /// words), in their order; `None` when they are not such a product or are fewer than two.
    pub fn of<I: AsRef<[Vec<u32>]>>(instances: &[I]) -> Option<InputGrid> {
        let first = instances.first()?.as_ref();
        if instances.len() < 2 {
            return None;
        }
        // A parameter's values in the order they first appear are its digits' values.
        let mut parameters: Vec<Vec<Vec<u32>>> = vec![Vec::new(); first.len()];
        let mut seen: Vec<HashSet<&[u32]>> = vec![HashSet::new(); first.len()];
        for instance in instances.iter().map(AsRef::as_ref) {
            if instance.len() != first.len() {
                return None;
            }
            for (p, words) in instance.iter().enumerate() {
                if words.len() != first[p].len() {
                    return None;
                }
                if seen[p].insert(words.as_slice()) {
                    parameters[p].push(words.clone());
                }
            }
        }
        let product = parameters
            .iter()
            .try_fold(1usize, |n, values| n.checked_mul(values.len()))?;
        let grid = InputGrid { parameters };
        let exact = product == instances.len()
            && instances
                .iter()
                .enumerate()
                .all(|(k, instance)| grid.decode(k as u64).eq(instance.as_ref().iter().map(Vec::as_slice)));
        exact.then_some(grid)
    }

    /// The argument words of instance `number`, parameter by parameter.
    fn decode(&self, mut number: u64) -> impl Iterator<Item = &[u32]> + '_ {
        self.parameters.iter().map(move |values| {
            let radix = values.len() as u64;
            let digit = (number % radix) as usize;
            number /= radix;
            values[digit].as_slice()
        })
    }

    /// The grid's words for a launch whose first instance is number `start`: `start` (2 words),
    /// the parameters' count, then per parameter its words per value, its values' count and the
    /// values (`kernel/abi.h`).
    pub fn words(&self, start: u64) -> Vec<u32> {
        let mut words = vec![start as u32, (start >> 32) as u32, self.parameters.len() as u32];
        for values in &self.parameters {
            words.push(values[0].len() as u32);
            words.push(values.len() as u32);
            words.extend(values.iter().flatten());
        }
        words
    }
}

/// The grid words of `words` (as [`InputGrid::words`] writes them) for a launch starting
/// `offset` instances later.
pub fn shifted(words: &[u32], offset: usize) -> Vec<u32> {
    let start = (u64::from(words[0]) | u64::from(words[1]) << 32) + offset as u64;
    let mut shifted = words.to_vec();
    shifted[0] = start as u32;
    shifted[1] = (start >> 32) as u32;
    shifted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(a: i32, b: i64) -> Vec<Vec<u32>> {
        vec![vec![a as u32], vec![b as u32, (b >> 32) as u32]]
    }

    #[test]
    fn a_product_numbered_first_parameter_first_is_a_grid_and_decodes_back() {
        let instances: Vec<Vec<Vec<u32>>> = [-1i64, 7]
            .iter()
            .flat_map(|&b| [-2, 0, 5].map(|a| instance(a, b)))
            .collect();
        let grid = InputGrid::of(&instances).expect("a product");
        for (k, expected) in instances.iter().enumerate() {
            assert!(grid.decode(k as u64).eq(expected.iter().map(Vec::as_slice)));
        }
        let words = grid.words(4);
        assert_eq!(&words[..3], &[4, 0, 2]);
        assert_eq!(shifted(&words, 3)[0], 7);
    }

    #[test]
    fn lists_that_are_not_products_in_that_order_are_not_grids() {
        // The second parameter varying fastest.
        let swapped: Vec<Vec<Vec<u32>>> = [0, 1].iter().flat_map(|&a| [3i64, 4].map(|b| instance(a, b))).collect();
        assert_eq!(InputGrid::of(&swapped), None);
        // A product with an instance missing.
        let mut partial: Vec<Vec<Vec<u32>>> = [3i64, 4].iter().flat_map(|&b| [0, 1].map(|a| instance(a, b))).collect();
        partial.pop();
        assert_eq!(InputGrid::of(&partial), None);
        assert_eq!(InputGrid::of(&[instance(1, 1)]), None);
    }
}
