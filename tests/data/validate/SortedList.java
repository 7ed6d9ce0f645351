/**
 * A sorted singly linked list of ints (GVM's sorted-list subject): a header object whose `head`
 * cells are in non-decreasing order, with `repOK` as its class invariant for Korat.
 */
public class SortedList {
    static class Cell {
        int value;
        Cell next;

        Cell(int value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    Cell head;
    int size;

    public SortedList() {
    }

    /** The list is acyclic (at most `size` cells), sorted, and `size` counts its cells. */
    boolean repOK() {
        int count = 0;
        for (Cell c = head; c != null; c = c.next) {
            count++;
            if (count > size) {
                return false;
            }
            if (c.next != null && c.value > c.next.value) {
                return false;
            }
        }
        return count == size;
    }

    void add(int value) {
        if (head == null || value <= head.value) {
            head = new Cell(value, head);
        } else {
            Cell c = head;
            while (c.next != null && c.next.value < value) {
                c = c.next;
            }
            c.next = new Cell(value, c.next);
        }
        size++;
    }

    boolean remove(int value) {
        if (head == null) {
            return false;
        }
        if (head.value == value) {
            head = head.next;
            size--;
            return true;
        }
        Cell c = head;
        while (c.next != null && c.next.value < value) {
            c = c.next;
        }
        if (c.next != null && c.next.value == value) {
            c.next = c.next.next;
            size--;
            return true;
        }
        return false;
    }

    boolean contains(int value) {
        for (Cell c = head; c != null && c.value <= value; c = c.next) {
            if (c.value == value) {
                return true;
            }
        }
        return false;
    }

    int sum() {
        int s = 0;
        for (Cell c = head; c != null; c = c.next) {
            s += c.value;
        }
        return s;
    }
}
