public class ImmutableLength {

    // Cons chains are acyclic by construction (final fields), so the walk ends.
    // expect: terminating
    public static int last(Cons l) {
        int v = 0;
        while (l != null) {
            v = l.head;
            l = l.tail;
        }
        return v;
    }

    // A counted build loop, then two walks over an acyclic chain.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        Cons l = null;
        for (int i = 0; i < n; i++) {
            l = new Cons(Random.random(), l);
        }
        last(l);
        if (l != null) {
            l.size();
        }
    }
}
