/**
 * Lists a method builds with constructors and then walks. A constructor that stores the cell it
 * is given makes the new cell one longer than that list, so `n` cells built in a loop make a list
 * at most `n` long, and the walk that follows is bounded by `n` too.
 */
public class BuiltLists {
    /** A list cell whose constructor stores the link. */
    static class Cell {
        int value;
        Cell next;

        // expect: O(1)
        Cell(int value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    /** A cell whose superclass constructor stores the link. */
    static class Tagged extends Cell {
        int tag;

        // expect: O(1)
        Tagged(int value, Cell next, int tag) {
            super(value, next);
            this.tag = tag;
        }
    }

    // expect: O(n)
    static int buildAndSum(int n) {
        Cell list = null;
        for (int i = 0; i < n; i++) {
            list = new Cell(i, list);
        }
        int sum = 0;
        for (Cell c = list; c != null; c = c.next) {
            sum += c.value;
        }
        return sum;
    }

    // expect: O(n)
    static int buildTaggedAndCount(int n) {
        Cell list = null;
        for (int i = 0; i < n; i++) {
            list = new Tagged(i, list, n - i);
        }
        int k = 0;
        for (Cell c = list; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(|a|)
    static int fromArray(int[] a) {
        Cell list = null;
        for (int x : a) {
            list = new Cell(x, list);
        }
        int k = 0;
        for (Cell c = list; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(m*n)
    static int walkRepeatedly(int n, int m) {
        Cell list = null;
        for (int i = 0; i < n; i++) {
            list = new Cell(i, list);
        }
        int total = 0;
        for (int j = 0; j < m; j++) {
            for (Cell c = list; c != null; c = c.next) {
                total++;
            }
        }
        return total;
    }

    // expect: O(n)
    static int buildInTry(int n) {
        Cell list = null;
        try {
            for (int i = 0; i < n; i++) {
                list = new Cell(100 / (n - i), list);
            }
        } catch (ArithmeticException e) {
            return -1;
        }
        int k = 0;
        for (Cell c = list; c != null; c = c.next) {
            k++;
        }
        return k;
    }
}
