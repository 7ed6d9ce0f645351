/**
 * A singly linked list of ints, one cell per object; its instance methods walk the list, so their
 * cost depends on its length (the path length of {@code this}).
 */
public class Chain {
    int value;
    Chain next;

    // expect: O(1)
    Chain(int value, Chain next) {
        this.value = value;
        this.next = next;
    }

    // expect: O(|this|)
    int length() {
        int n = 0;
        for (Chain p = this; p != null; p = p.next) {
            n++;
        }
        return n;
    }

    // expect: O(|this|)
    int sum() {
        int s = 0;
        Chain p = this;
        while (p != null) {
            s += p.value;
            p = p.next;
        }
        return s;
    }

    // expect: O(|this|)
    int last() {
        Chain p = this;
        while (p.next != null) {
            p = p.next;
        }
        return p.value;
    }

    // expect: O(|this|)
    boolean contains(int x) {
        for (Chain p = this; p != null; p = p.next) {
            if (p.value == x) {
                return true;
            }
        }
        return false;
    }

    // expect: O(|this|)
    int countAbove(int x) {
        int c = 0;
        for (Chain p = this; p != null; p = p.next) {
            if (p.value <= x) {
                continue;
            }
            c++;
        }
        return c;
    }

    // expect: O(|this|)
    int recursiveLength() {
        if (next == null) {
            return 1;
        }
        return 1 + next.recursiveLength();
    }

    // expect: O(|this|^2)
    int pairsWithSum(int target) {
        int c = 0;
        for (Chain p = this; p != null; p = p.next) {
            for (Chain q = p.next; q != null; q = q.next) {
                if (p.value + q.value == target) {
                    c++;
                }
            }
        }
        return c;
    }

    // expect: O(n)
    static Chain build(int n) {
        Chain r = null;
        for (int i = 0; i < n; i++) {
            r = new Chain(i, r);
        }
        return r;
    }

    // In place: the walk goes on in the part of the list its writes never reach.
    // expect: O(|list|)
    static Chain reverse(Chain list) {
        Chain done = null;
        while (list != null) {
            Chain rest = list.next;
            list.next = done;
            done = list;
            list = rest;
        }
        return done;
    }

    // Walks that build new cells while they read old ones: writes into cells the method made
    // change no cell it was given, as long as it never links a new cell into an old one (once it
    // does, see `HeapWrites.linkThenGrow`).

    // The copy's tail is always a new cell: the walk of the original keeps its length.
    // expect: O(|l|)
    static Chain copy(Chain l) {
        if (l == null) {
            return null;
        }
        Chain head = new Chain(l.value, null);
        Chain tail = head;
        for (Chain c = l.next; c != null; c = c.next) {
            tail.next = new Chain(c.value, null);
            tail = tail.next;
        }
        return head;
    }

    // The recursive call makes new cells only: the cell it was given keeps its length.
    // expect: O(|l|)
    static Chain doubled(Chain l) {
        if (l == null) {
            return null;
        }
        Chain rest = doubled(l.next);
        return new Chain(2 * l.value, rest);
    }

    // Reversal keeps the list acyclic: at each step the reversed part and the rest share no
    // cell, so linking the first cell of the rest to the reversed part closes no cycle, and the
    // reversed part grows by one cell as the rest loses one.
    // expect: O(|l|)
    static int lengthOfReversed(Chain l) {
        Chain r = reverse(l);
        return r == null ? 0 : r.length();
    }

    // expect: O(|l|)
    static Chain reverseTwice(Chain l) {
        return reverse(reverse(l));
    }

    // The reversal written out, then a walk of its result.
    // expect: O(|l|)
    static int reverseAndCount(Chain l) {
        Chain done = null;
        while (l != null) {
            Chain rest = l.next;
            l.next = done;
            done = l;
            l = rest;
        }
        int n = 0;
        for (Chain p = done; p != null; p = p.next) {
            n++;
        }
        return n;
    }

    // A walk to the last cell of `a`, then a link to `b`: with `a == b` it closes a cycle.
    // expect: unbounded
    static int appendAndCount(Chain a, Chain b) {
        if (a == null) {
            return 0;
        }
        Chain last = a;
        while (last.next != null) {
            last = last.next;
        }
        last.next = b;
        return a.length();
    }

    // A reversal that links the old head back to the new one: a cycle.
    // expect: unbounded
    static int reverseIntoCycle(Chain l) {
        Chain head = l;
        Chain done = reverse(l);
        if (head != null) {
            head.next = done;
        }
        return done == null ? 0 : done.length();
    }

    // expect: O(1)
    static Chain same(Chain c) {
        return c;
    }

    // `same(c)` is `c` under another name: the write links `c` to itself.
    // expect: unbounded
    static int linkedThroughACall() {
        Chain c = new Chain(1, null);
        Chain alias = same(c);
        alias.next = c;
        return c.length();
    }

    /** A holder of a list. */
    static final class Holder {
        Chain first;

        // expect: O(1)
        Holder(Chain first) {
            this.first = first;
        }
    }

    // The held list is reversed in place and stored back, then walked from the holder: no cell
    // can reach a holder (by their classes), so the store closes no cycle.
    // expect: O(|l|)
    static int reverseHeld(Chain l) {
        Holder h = new Holder(l);
        Chain done = null;
        Chain rest = h.first;
        while (rest != null) {
            Chain next = rest.next;
            rest.next = done;
            done = rest;
            rest = next;
        }
        h.first = done;
        int n = 0;
        for (Chain p = h.first; p != null; p = p.next) {
            n++;
        }
        return n;
    }

    // Links `b` after the last cell of `a`: a cycle only when `b` reaches `a`.
    // expect: O(|a|)
    static void appendTo(Chain a, Chain b) {
        Chain p = a;
        while (p.next != null) {
            p = p.next;
        }
        p.next = b;
    }

    // `appendTo` given structures that share no cell closes no cycle, and a new cell shares
    // none with `l`: the walk that follows terminates (its length is not known, as `l` grew).
    // expect: terminating
    static int appendCellAndCount(Chain l) {
        if (l == null) {
            return 0;
        }
        appendTo(l, new Chain(7, null));
        return l.length();
    }

    // Each call of `build` returns cells it made, which share none with the cells that existed
    // before: the second list shares no cell with the first, so linking it after the first
    // closes no cycle.
    // expect: terminating
    static int buildTwoAndJoin(int n, int m) {
        Chain a = new Chain(0, build(n));
        Chain b = build(m);
        appendTo(a, b);
        return a.length();
    }

    // The same list twice: `appendTo(a, a)` closes a cycle.
    // expect: unbounded
    static int buildAndJoinToItself(int n) {
        Chain a = new Chain(0, build(n));
        appendTo(a, a);
        return a.length();
    }

    // Links a cell to itself when its successor is missing: the cycle is closed in a handler.
    // expect: O(1)
    static void linkToItselfWhenLast(Chain l) {
        if (l == null) {
            return;
        }
        try {
            l.next.value = 1;
        } catch (NullPointerException e) {
            l.next = l;
        }
    }

    // What a handler does, its method does: the walk may follow the cycle forever.
    // expect: unbounded
    static int linkThenCount(Chain l) {
        if (l == null) {
            return 0;
        }
        linkToItselfWhenLast(l);
        return l.length();
    }
}
