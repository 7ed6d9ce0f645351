public class LengthFieldList {

    // The fill loop is counted by n; sum and max are bounded by the length field.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        SizedList s = new SizedList();
        int n = Random.random();
        for (int i = 0; i < n; i++) {
            s.add(Random.random());
        }
        s.sum();
        s.max();
    }
}
