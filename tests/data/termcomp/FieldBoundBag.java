public class FieldBoundBag {

    // Fill loop counted by n, then calls to the terminating Bag methods.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        Bag b = new Bag(n);
        for (int i = 0; i < n; i++) {
            b.push(Random.random());
        }
        b.total();
        b.has(Random.random());
    }
}
