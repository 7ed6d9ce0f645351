/**
 * Recursive walks of trees: the subtrees a node's fields hold are disjoint parts of it, so a walk
 * that recurses into each of them once visits each node once, and its cost is linear in the
 * tree's size (its number of nodes), not exponential in its depth.
 */
public class Trees {
    /** A binary tree node. */
    static class Node {
        int key;
        Node left;
        Node right;

        // expect: O(1)
        Node(int key, Node left, Node right) {
            this.key = key;
            this.left = left;
            this.right = right;
        }

        // expect: O(|t|)
        static int size(Node t) {
            if (t == null) {
                return 0;
            }
            return 1 + size(t.left) + size(t.right);
        }

        // expect: O(|t|)
        static int height(Node t) {
            if (t == null) {
                return 0;
            }
            return 1 + Math.max(height(t.left), height(t.right));
        }

        // Builds a new tree as large as the old one.
        // expect: O(|t|)
        static Node mirror(Node t) {
            if (t == null) {
                return null;
            }
            return new Node(t.key, mirror(t.right), mirror(t.left));
        }

        // Counts the leaves, with a test of both children before the calls.
        // expect: O(|t|)
        static int leaves(Node t) {
            if (t.left == null && t.right == null) {
                return 1;
            }
            int n = 0;
            if (t.left != null) {
                n += leaves(t.left);
            }
            if (t.right != null) {
                n += leaves(t.right);
            }
            return n;
        }

        // Walks the left subtree twice: one field read twice is not two parts of the node, so the
        // cost doubles at each level (a left spine of depth d costs 2^d calls).
        // expect: O(2^|t|)
        static int leftTwice(Node t) {
            if (t == null) {
                return 0;
            }
            return 1 + leftTwice(t.left) + leftTwice(t.left);
        }

        // Persistent insertion: a new node on each level of one path; the tree it returns has one
        // node more.
        // expect: O(|t|)
        static Node insert(Node t, int key) {
            if (t == null) {
                return new Node(key, null, null);
            }
            if (key < t.key) {
                return new Node(t.key, insert(t.left, key), t.right);
            }
            return new Node(t.key, t.left, insert(t.right, key));
        }

        // Counts the nodes as a tree counts them: once per path. A DAG of 32 levels, each node
        // pointing twice to the one below, has 2^32 - 1 paths, so the count wraps to -1 and the
        // loop never ends: an object's size is not bounded by any `int`.
        // expect: nonterminating
        static int countThenSpin(Node t) {
            int n = size(t);
            int k = 0;
            while (n < 0) {
                k++;
            }
            return k;
        }

        // n insertions into a growing tree, then one walk of it.
        // expect: O(n^2)
        static int buildAndCount(int n) {
            Node t = null;
            for (int i = 0; i < n; i++) {
                t = insert(t, (i * 7) % 13);
            }
            return size(t);
        }
    }

    /** A node with three children. */
    static class Ternary {
        int key;
        Ternary low;
        Ternary mid;
        Ternary high;

        // expect: O(|t|)
        static int sumKeys(Ternary t) {
            if (t == null) {
                return 0;
            }
            return t.key + sumKeys(t.low) + sumKeys(t.mid) + sumKeys(t.high);
        }
    }

    // What `Node.buildAndCount` does, from another class.
    // expect: O(n^2)
    static int buildAndCountElsewhere(int n) {
        Node t = null;
        for (int i = 0; i < n; i++) {
            t = Node.insert(t, (i * 7) % 13);
        }
        return Node.size(t);
    }
}
