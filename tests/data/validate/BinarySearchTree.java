/**
 * A binary search tree of ints (GVM's and Korat's tree subject): a header object with a `root`
 * and a `size`, with `repOK` as its class invariant for Korat (a tree, ordered, `size` nodes).
 */
public class BinarySearchTree {
    static class Node {
        int key;
        Node left;
        Node right;

        Node(int key) {
            this.key = key;
        }
    }

    Node root;
    int size;

    public BinarySearchTree() {
    }

    boolean repOK() {
        if (root == null) {
            return size == 0;
        }
        int[] count = new int[1];
        return ordered(root, Integer.MIN_VALUE, Integer.MAX_VALUE, count) && count[0] == size;
    }

    /** Keys in `low..=high`, no node reached twice (so at most `size` nodes). */
    private boolean ordered(Node n, int low, int high, int[] count) {
        if (n == null) {
            return true;
        }
        count[0]++;
        if (count[0] > size || n.key < low || n.key > high) {
            return false;
        }
        return ordered(n.left, low, n.key - 1, count) && ordered(n.right, n.key + 1, high, count);
    }

    boolean contains(int key) {
        Node n = root;
        while (n != null) {
            if (key < n.key) {
                n = n.left;
            } else if (key > n.key) {
                n = n.right;
            } else {
                return true;
            }
        }
        return false;
    }

    boolean add(int key) {
        if (root == null) {
            root = new Node(key);
            size++;
            return true;
        }
        Node n = root;
        while (true) {
            if (key < n.key) {
                if (n.left == null) {
                    n.left = new Node(key);
                    size++;
                    return true;
                }
                n = n.left;
            } else if (key > n.key) {
                if (n.right == null) {
                    n.right = new Node(key);
                    size++;
                    return true;
                }
                n = n.right;
            } else {
                return false;
            }
        }
    }

    int height() {
        return height(root);
    }

    private static int height(Node n) {
        if (n == null) {
            return 0;
        }
        int l = height(n.left);
        int r = height(n.right);
        return 1 + (l > r ? l : r);
    }
}
