public class McCarthy91 {

    // n > 100 returns at once (no overflow); for n <= 100 every call returns 91 and
    // 101 - n ranks the nested calls. Needs the result of the inner call, not a plain measure.
    // expect: terminating
    public static int f(int n) {
        if (n > 100) {
            return n - 10;
        }
        return f(f(n + 11));
    }

    // Straight-line code around one call to f.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        f(Random.random());
    }
}
