public class ArrayJump {

    // A zero element makes i = i + a[i] stand still.
    // Input: a = {0}.
    // expect: nonterminating
    public static int jump(int[] a) {
        int i = 0;
        int hops = 0;
        while (i < a.length) {
            i = i + a[i];
            hops++;
        }
        return hops;
    }

    // An empty second argument stores 0 in a[0], and jump loops.
    // Input: args = {"a", ""} (a = {0}).
    // expect: nonterminating
    public static void main(String[] args) {
        Random.args = args;
        int[] a = new int[Random.random()];
        for (int j = 0; j < a.length; j++) {
            a[j] = Random.random();
        }
        jump(a);
    }
}
